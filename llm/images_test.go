package llm

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

func tinyPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imageTurn is a tool turn whose first result carries an image: two calls, two results, then
// a note, so where the image lands relative to the results is visible.
func imageTurn(model string, img Image) *Request {
	return &Request{Model: model, System: "be brief", Messages: []Message{
		{Role: RoleUser, Content: "look at the logo"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_a", Name: "read_file", Args: `{"path":"logo.png"}`},
			{ID: "call_b", Name: "read_file", Args: `{"path":"notes.txt"}`}}, Model: model},
		{Role: RoleTool, ToolCallID: "call_a", ToolName: "read_file", Content: "logo.png: PNG image, 3×2 px", Images: []Image{img}},
		{Role: RoleTool, ToolCallID: "call_b", ToolName: "read_file", Content: "1\tnotes"},
		{Role: RoleUser, Content: "[troupe] note"},
	}}
}

// sentImages lists where each image of a recorded request went, as "role/where" paths, and the
// base64 data of each.
func sentImages(t *testing.T, proto string, body map[string]any) (where, data []string) {
	t.Helper()
	msgs, key := "messages", "content"
	if proto == "gemini" {
		msgs, key = "contents", "parts"
	}
	for _, m := range list(body[msgs]) {
		msg, _ := m.(map[string]any)
		role, _ := msg["role"].(string)
		for _, p := range list(msg[key]) {
			part, _ := p.(map[string]any)
			switch {
			case part["type"] == "image":
				where = append(where, role+"/image")
				data = append(data, part["source"].(map[string]any)["data"].(string))
			case part["type"] == "tool_result":
				for _, c := range list(part["content"]) {
					if c.(map[string]any)["type"] == "image" {
						where = append(where, role+"/tool_result:"+part["tool_use_id"].(string))
						data = append(data, c.(map[string]any)["source"].(map[string]any)["data"].(string))
					}
				}
			case part["type"] == "image_url":
				url := part["image_url"].(map[string]any)["url"].(string)
				where = append(where, role+"/image_url")
				data = append(data, url[strings.IndexByte(url, ',')+1:])
			case part["inlineData"] != nil:
				where = append(where, role+"/inline")
				data = append(data, part["inlineData"].(map[string]any)["data"].(string))
			}
		}
	}
	return where, data
}

func list(v any) []any { l, _ := v.([]any); return l }

var imageWires = []struct {
	wire
	model string
	where []string // where the one image must go
	after string   // a fragment of the request that must come before the image: every result
}{
	{wires[0], "claude-sonnet-4-5", []string{"user/tool_result:call_a"}, `"tool_use_id":"call_b"`},
	{wires[1], "gemini-2.5-pro", []string{"user/inline"}, `"id":"call_b"`},
	{wire{name: "openai", serve: func(r llmtest.Responder) fakeServer { return llmtest.NewOpenAI(r) },
		open: func(url string) Provider {
			return NewOpenAI(OpenAIConfig{Name: "openai", BaseURL: url, APIKey: "sk-test"})
		}},
		"gpt-4o", []string{"user/image_url"}, `"tool_call_id":"call_b"`},
}

// TestImagesGoOnEachWireInTheProvidersShape: a tool result's image reaches a vision model in
// its provider's own shape (inside the tool_result, inline data after the function
// responses, an image_url user message after the tool messages), with its bytes intact, and
// each fake server checks it as the real API would.
func TestImagesGoOnEachWireInTheProvidersShape(t *testing.T) {
	data := tinyPNG(t)
	for _, w := range imageWires {
		t.Run(w.name, func(t *testing.T) {
			p, srv := w.against(t, llmtest.Reply{Text: "a grey logo"})
			img := Image{Ref: "r1", MediaType: "image/png", Width: 3, Height: 2, Bytes: len(data), Data: data}
			r, _, err := collect(t, p, imageTurn(w.model, img))
			if err != nil || r.Text != "a grey logo" {
				t.Fatalf("reply %+v, err %v", r, err)
			}
			raw := string(srv.Requests()[0].Body)
			where, sent := sentImages(t, w.name, sentBody(t, srv.Requests(), 0))
			if strings.Join(where, ",") != strings.Join(w.where, ",") {
				t.Fatalf("images went to %v, want %v", where, w.where)
			}
			if got, _ := base64.StdEncoding.DecodeString(sent[0]); !bytes.Equal(got, data) {
				t.Fatal("the image bytes changed on the wire")
			}
			if w.name != "anthropic" && strings.Index(raw, w.after) > strings.Index(raw, sent[0]) {
				t.Fatalf("the image comes before the result %s: pairing broken", w.after)
			}
			if strings.Contains(raw, "image not shown") {
				t.Fatal("a placeholder was sent with the image")
			}
		})
	}
}

// TestImagesToAModelWithoutVisionBecomeAPlaceholder: no image part at all, and the result says
// what the image was; an image whose bytes could not be loaded says so too.
func TestImagesToAModelWithoutVisionBecomeAPlaceholder(t *testing.T) {
	data := tinyPNG(t)
	for _, w := range imageWires {
		for _, tc := range []struct {
			name, model, want string
			data              []byte
		}{
			{"no vision", "qwen2.5-coder-32b", "does not accept images", data},
			{"not loaded", w.model, "could not be read", nil},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				p, srv := w.against(t, llmtest.Reply{Text: "ok"})
				img := Image{Ref: "r1", MediaType: "image/png", Width: 3, Height: 2, Bytes: len(data), Data: tc.data}
				if _, _, err := collect(t, p, imageTurn(tc.model, img)); err != nil {
					t.Fatal(err)
				}
				where, _ := sentImages(t, w.name, sentBody(t, srv.Requests(), 0))
				raw := string(srv.Requests()[0].Body)
				if len(where) != 0 || !strings.Contains(raw, "PNG image, 3×2 px") || !strings.Contains(raw, tc.want) {
					t.Fatalf("images %v; body %s", where, raw)
				}
			})
		}
	}
}

// TestTheFakeServersRefuseAMislabelledImage: the wire check in llmtest is real — PNG bytes
// labelled JPEG are refused with the provider's 400, a fatal error.
func TestTheFakeServersRefuseAMislabelledImage(t *testing.T) {
	data := tinyPNG(t)
	for _, w := range imageWires {
		t.Run(w.name, func(t *testing.T) {
			p, _ := w.against(t, llmtest.Reply{Text: "ok"})
			img := Image{Ref: "r1", MediaType: "image/jpeg", Width: 3, Height: 2, Bytes: len(data), Data: data}
			_, _, err := collect(t, p, imageTurn(w.model, img))
			var e *Error
			if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(err.Error(), "media type") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestLoadImagesFillsOnlyForVisionModels(t *testing.T) {
	msgs := []Message{{Role: RoleUser, Content: "hi"}, {Role: RoleTool, Images: []Image{{Ref: "a"}, {Ref: "missing"}}}}
	load := func(ref string) ([]byte, error) {
		if ref == "a" {
			return []byte("png"), nil
		}
		return nil, errors.New("no such artifact")
	}
	got := LoadImages(msgs, "claude-opus-4", load)
	if string(got[1].Images[0].Data) != "png" || got[1].Images[1].Data != nil {
		t.Fatalf("loaded %+v", got[1].Images)
	}
	if msgs[1].Images[0].Data != nil {
		t.Fatal("the caller's messages were changed")
	}
	if got := LoadImages(msgs, "qwen2.5-coder", load); got[1].Images[0].Data != nil {
		t.Fatal("loaded images for a model without vision")
	}
}

func TestVisionTable(t *testing.T) {
	for model, want := range map[string]bool{
		"anthropic/claude-sonnet-4-5": true, "gemini-2.5-flash": true, "gpt-4o-mini": true, "o3": true, "gpt-5": true,
		"qwen2.5-vl-72b": true, "llava:13b": true, "gemma3:27b": true,
		"qwen2.5-coder-32b": false, "deepseek-chat": false, "gpt-oss-120b": false, "glm-4.6": false, "devstral": false, "gpt-3.5-turbo": false,
	} {
		if got := QuirksFor(model).Vision; got != want {
			t.Errorf("%s: vision %v, want %v", model, got, want)
		}
	}
}
