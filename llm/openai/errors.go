package openai

import (
	"encoding/json"
	"html"
	"strings"
)

// ErrorMessage pulls the server's own words out of an error body of any shape the compatible
// servers use:
//
//	{"error":{"message":…,"code":…}}  OpenAI, vLLM, llama.cpp, DeepSeek, Groq, OpenRouter
//	{"error":"text"}                   llama.cpp, LM Studio, Ollama's native errors
//	{"message":…}                      Mistral, Gemini's and Anthropic's inner shapes
//	{"detail":"text"} or {"detail":[{"msg":…}]}  FastAPI-based servers (SGLang, TGI, LiteLLM)
//	an HTML page                       proxies and load balancers: its title, or its text
//	plain text                         anything else, as is
//
// The result is one line, whitespace folded.
func ErrorMessage(body string) string {
	body = strings.TrimSpace(body)
	if body == "" {
		return ""
	}
	if body[0] == '{' {
		if m := jsonMessage(body); m != "" {
			return oneLine(m)
		}
	}
	if body[0] == '<' {
		return oneLine(htmlMessage(body))
	}
	return oneLine(body)
}

func jsonMessage(body string) string {
	var v struct {
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal([]byte(body), &v) != nil {
		return ""
	}
	var inner struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	if json.Unmarshal(v.Error, &inner) == nil && inner.Message != "" {
		if c, ok := inner.Code.(string); ok && c != "" && !strings.Contains(inner.Message, c) {
			return inner.Message + " (" + c + ")"
		}
		return inner.Message
	}
	var s string
	if json.Unmarshal(v.Error, &s) == nil && s != "" {
		return s
	}
	if v.Message != "" {
		return v.Message
	}
	if json.Unmarshal(v.Detail, &s) == nil && s != "" {
		return s
	}
	var items []struct {
		Msg string `json:"msg"`
		Loc []any  `json:"loc"`
	}
	if json.Unmarshal(v.Detail, &items) == nil && len(items) > 0 {
		var parts []string
		for _, it := range items {
			parts = append(parts, it.Msg)
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// htmlMessage is the title (or first heading) of an HTML error page, else its text. It reads
// the page by hand rather than with regexp: a package-level regexp costs every start.
func htmlMessage(body string) string {
	for _, tag := range []string{"title", "h1"} {
		if t := strings.TrimSpace(stripTags(element(body, tag))); t != "" {
			return html.UnescapeString(t)
		}
	}
	return html.UnescapeString(stripTags(body))
}

// element is the inner HTML of the first <tag> element of page, "" when there is none.
func element(page, tag string) string {
	lower := strings.ToLower(page)
	i := strings.Index(lower, "<"+tag)
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(lower[i:], '>')
	if j < 0 {
		return ""
	}
	start := i + j + 1
	end := strings.Index(lower[start:], "</"+tag)
	if end < 0 {
		return ""
	}
	return page[start : start+end]
}

// stripTags replaces each tag with a space and drops script and style elements whole.
func stripTags(s string) string {
	var b strings.Builder
	lower := strings.ToLower(s)
	for i := 0; i < len(s); {
		if s[i] != '<' {
			b.WriteByte(s[i])
			i++
			continue
		}
		for _, skip := range []string{"script", "style"} {
			if strings.HasPrefix(lower[i+1:], skip) {
				if end := strings.Index(lower[i:], "</"+skip); end >= 0 {
					i += end + 1
				}
			}
		}
		end := strings.IndexByte(s[i:], '>')
		if end < 0 {
			break
		}
		b.WriteByte(' ')
		i += end + 1
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
