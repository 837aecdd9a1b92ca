package openai

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Content is a message's content as servers send it: a string, null, or (Mistral's Magistral,
// some LiteLLM routes) an array of parts, of which "text" parts are the answer and "thinking"
// parts are reasoning.
type Content struct {
	Text, Thinking string
	Parts          bool // it came as an array
}

func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || b[0] == 'n':
		return nil
	case b[0] == '"':
		return json.Unmarshal(b, &c.Text)
	case b[0] != '[':
		return &json.UnmarshalTypeError{Value: "non-string content", Type: reflect.TypeFor[string]()}
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking json.RawMessage `json:"thinking"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	c.Parts = true
	for _, p := range parts {
		if p.Type != "thinking" {
			c.Text += p.Text
			continue
		}
		var s string
		if json.Unmarshal(p.Thinking, &s) == nil {
			c.Thinking += s
			continue
		}
		var inner []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(p.Thinking, &inner)
		for _, t := range inner {
			c.Thinking += t.Text
		}
	}
	return nil
}
