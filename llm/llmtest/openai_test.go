package llmtest

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestOpenAINonStreamingReply(t *testing.T) {
	srv := NewOpenAI(func(n int, body map[string]any) Reply {
		return Reply{Text: "hi", Calls: []Call{{Name: "glob", Args: `{"pattern":"*"}`}}}
	})
	defer srv.Close()
	resp := post(t, srv.URL(), `{"model":"m","messages":[]}`)
	var got struct {
		Choices []struct {
			Message struct {
				Content   string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	c := got.Choices[0]
	if c.Message.Content != "hi" || c.FinishReason != "tool_calls" || c.Message.ToolCalls[0].ID != "call_0" ||
		c.Message.ToolCalls[0].Function.Arguments != `{"pattern":"*"}` || got.Usage.PromptTokens == 0 {
		t.Fatalf("reply = %+v", got)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Fatalf("recorded %+v", reqs)
	}
}

func TestOpenAIStreamEndsWithUsageAndDone(t *testing.T) {
	srv := NewOpenAI(func(int, map[string]any) Reply { return Reply{Text: "streamed text here"} })
	defer srv.Close()
	resp := post(t, srv.URL(), `{"model":"m","stream":true,"stream_options":{"include_usage":true}}`)
	var lines []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if l, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			lines = append(lines, l)
		}
	}
	if len(lines) < 4 || lines[len(lines)-1] != "[DONE]" || !strings.Contains(lines[len(lines)-2], `"usage"`) ||
		!strings.Contains(lines[len(lines)-3], `"finish_reason":"stop"`) {
		t.Fatalf("stream = %q", lines)
	}
}

func TestOpenAIErrorShapeAndDrop(t *testing.T) {
	srv := NewOpenAI(func(n int, _ map[string]any) Reply {
		if n == 0 {
			return Reply{Status: 429, RetryAfter: "1"}
		}
		return Reply{Text: "abcdefghijklmnopqrstuvwxyz0123456789", DropAfter: 2}
	})
	defer srv.Close()
	resp := post(t, srv.URL(), `{"model":"m","stream":true}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("status %d retry-after %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	resp = post(t, srv.URL(), `{"model":"m","stream":true}`)
	sc := bufio.NewScanner(resp.Body)
	var events int
	var done bool
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			events++
			done = done || sc.Text() == "data: [DONE]"
		}
	}
	if events != 2 || done {
		t.Fatalf("dropped stream sent %d events (done=%v), want 2 and no [DONE]", events, done)
	}
}
