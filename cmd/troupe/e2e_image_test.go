package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/mcptest"
	"github.com/troupe-dev/troupe/llm/llmtest"
)

func e2ePNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 24, 16))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 13)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// openAIImageParts returns, for an OpenAI request body, the roles of the messages in order and
// the decoded bytes of every image_url part.
func openAIImageParts(t *testing.T, body []byte) (roles []string, images [][]byte) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
		var parts []struct {
			Type     string `json:"type"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if json.Unmarshal(m.Content, &parts) != nil {
			continue
		}
		for _, p := range parts {
			if p.Type == "image_url" {
				_, data, _ := strings.Cut(p.ImageURL.URL, ",")
				raw, err := base64.StdEncoding.DecodeString(data)
				if err != nil {
					t.Fatal(err)
				}
				images = append(images, raw)
			}
		}
	}
	return roles, images
}

// TestReadFileImageReachesAVisionModel: through the real binary, read_file of a PNG puts the
// image on the wire as a user message right after the tool result (pairing holds, the bytes
// are the file's), and the same run against a model without vision sends a placeholder line
// instead, and the run still ends well.
func TestReadFileImageReachesAVisionModel(t *testing.T) {
	pic := e2ePNG(t)
	for _, tc := range []struct {
		model  string
		vision bool
	}{{"openai/gpt-4o", true}, {"openai/qwen2.5-coder-32b", false}} {
		t.Run(tc.model, func(t *testing.T) {
			repo := newRepo(t, map[string]string{"art/logo.png": string(pic)})
			srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
				if n == 0 {
					return llmtest.Reply{Calls: []llmtest.Call{{Name: "read_file", Args: `{"path":"art/logo.png"}`}}}
				}
				return llmtest.Reply{Text: "FINISHED looked"}
			})
			defer srv.Close()
			r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-test"), "run", "--json", "--model", tc.model, "--base-url", srv.URL(), "--mode", "yolo", "Look at art/logo.png")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if fin := finished(t, envelopes(t, r.stdout)); fin.Final != "FINISHED looked" {
				t.Fatalf("final = %q", fin.Final)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("want 2 requests, got %d", len(reqs))
			}
			if p := pairingViolations(reqs[1].Body); len(p) > 0 {
				t.Fatalf("pairing: %v", p)
			}
			roles, images := openAIImageParts(t, reqs[1].Body)
			body := string(reqs[1].Body)
			if !tc.vision {
				if len(images) != 0 || !strings.Contains(body, "does not accept images") || !strings.Contains(body, "PNG image, 24×16 px") {
					t.Fatalf("a model without vision got %d images; body %s", len(images), body)
				}
				return
			}
			if len(images) != 1 || !bytes.Equal(images[0], pic) {
				t.Fatalf("got %d images (the first equal to the file: %v)", len(images), len(images) > 0 && bytes.Equal(images[0], pic))
			}
			if got := strings.Join(roles, ","); got != "system,user,assistant,tool,user" {
				t.Fatalf("roles %s: the image must follow the tool result", got)
			}
			if strings.Contains(body, "image not shown") {
				t.Fatal("a placeholder went with the image")
			}
		})
	}
}

// TestMCPImageContentReachesTheModel: the reference server's get-tiny-image result, through
// the MCP server actor, the executor and the session, reaches an Anthropic model as an image
// inside the tool_result, and the llmtest server accepts its shape.
func TestMCPImageContentReachesTheModel(t *testing.T) {
	node, script := mcptest.Reference(t, "server-everything")
	repo := newRepo(t, nil)
	writeMCPJSON(t, repo, map[string]any{"everything": map[string]any{"command": node, "args": []string{script, "stdio"}}})
	srv := llmtest.NewAnthropic(func(n int, body map[string]any) llmtest.Reply {
		if n == 0 {
			return llmtest.Reply{Calls: []llmtest.Call{{Name: "mcp__everything__get-tiny-image", Args: `{}`}}}
		}
		return llmtest.Reply{Text: "FINISHED saw it"}
	})
	defer srv.Close()
	home := trustedHome(t, repo)
	r := troupe(t, repo, append(testEnv(t, "ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL="+srv.URL()), "HOME="+home),
		"run", "--json", "--model", "anthropic/claude-sonnet-4-5", "--mode", "yolo", "show me the tiny image")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d: %s", len(reqs), r.stderr)
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type    string `json:"type"`
				Content []struct {
					Type   string `json:"type"`
					Source struct {
						MediaType string `json:"media_type"`
						Data      string `json:"data"`
					} `json:"source"`
				} `json:"content"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1].Body, &req); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range req.Messages {
		for _, b := range m.Content {
			for _, c := range b.Content {
				if b.Type == "tool_result" && c.Type == "image" && c.Source.MediaType == "image/png" {
					raw, _ := base64.StdEncoding.DecodeString(c.Source.Data)
					found = bytes.HasPrefix(raw, []byte("\x89PNG"))
				}
			}
		}
	}
	if !found {
		t.Fatalf("no PNG inside the tool_result: %s", reqs[1].Body)
	}
}

// TestMentionedImageReachesTheModel: a chat line's @path to an image attaches it with the
// mention's note: the image goes to the model in that user message, its bytes intact.
func TestMentionedImageReachesTheModel(t *testing.T) {
	pic := e2ePNG(t)
	repo := newRepo(t, map[string]string{"art/logo.png": string(pic)})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply { return llmtest.Reply{Text: "A-LOGO"} })
	defer srv.Close()
	cmd, stdin, out, stderr := startWithStdin(t, repo, testEnv(t, "OPENAI_API_KEY=sk-test"), "chat", "--mode", "ask",
		"--model", "openai/gpt-4o", "--base-url", srv.URL())
	io.WriteString(stdin, "what is in @art/logo.png ?\n")
	out.waitFor(t, "A-LOGO", 60*time.Second)
	io.WriteString(stdin, "/exit\n")
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Fatalf("chat exit %d: %s", code, stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("want 1 request, got %d", len(reqs))
	}
	_, images := openAIImageParts(t, reqs[0].Body)
	if len(images) != 1 || !bytes.Equal(images[0], pic) {
		t.Fatalf("got %d images; body %s", len(images), reqs[0].Body)
	}
}
