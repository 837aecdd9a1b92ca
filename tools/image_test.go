package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadFileAttachesImages: an image file (by content, whatever its name) is attached by
// reference to its stored, fitted copy; the text says what it is. A broken image, an image
// with no artifact store, and a text file named .png each get a plain answer.
func TestReadFileAttachesImages(t *testing.T) {
	env := newEnv(t)
	arts := newMemArtifacts()
	env.Artifacts = arts
	small, big := pngOf(t, 40, 30), pngOf(t, 2400, 600)
	for name, data := range map[string][]byte{"logo.png": small, "shot.bin": big, "broken.png": small[:len(small)/2],
		"fake.png": []byte("just text\n")} {
		if err := os.WriteFile(filepath.Join(env.Root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	res := call(t, env, "read_file", `{"path":"logo.png"}`)
	if res.IsError || len(res.Images) != 1 {
		t.Fatalf("logo.png: %+v", res)
	}
	mustContain(t, res.Output, "logo.png: PNG image, 40×30 px", "attached")
	img := res.Images[0]
	if stored, _ := arts.Artifact(img.Ref); !bytes.Equal(stored, small) || img.MediaType != "image/png" || img.Width != 40 || img.Bytes != len(small) {
		t.Fatalf("stored image %+v does not match the file", img)
	}

	res = call(t, env, "read_file", `{"path":"shot.bin"}`)
	if res.IsError || len(res.Images) != 1 || res.Images[0].Width != 1568 || res.Images[0].Height != 392 {
		t.Fatalf("shot.bin: %+v", res)
	}
	mustContain(t, res.Output, "PNG image, 2400×600 px", "sent as PNG image, 1568×392 px")

	res = call(t, env, "read_file", `{"path":"broken.png"}`)
	if !res.IsError || len(res.Images) != 0 {
		t.Fatalf("broken.png: %+v", res)
	}
	mustContain(t, res.Output, "broken.png has the signature of image/png but is not a usable image")

	res = call(t, env, "read_file", `{"path":"fake.png"}`)
	if res.IsError || len(res.Images) != 0 || !strings.Contains(res.Output, "just text") {
		t.Fatalf("fake.png: %+v", res)
	}

	env.Artifacts = nil
	res = call(t, env, "read_file", `{"path":"logo.png"}`)
	if res.IsError || len(res.Images) != 0 {
		t.Fatalf("no artifact store: %+v", res)
	}
	mustContain(t, res.Output, "PNG image, 40×30 px", "not attached", "keeps no artifacts")
}

// fakeMCP answers every call with one result.
type fakeMCP struct{ res *messages.MCPCallResult }

func (f fakeMCP) CallMCP(context.Context, string, string, json.RawMessage) *messages.MCPCallResult {
	return f.res
}

func (f fakeMCP) MCPResources(context.Context, string, string, json.RawMessage) *messages.MCPCallResult {
	return f.res
}

// TestMCPToolAttachesImageContent: an MCP result's images are fitted and stored like
// read_file's; one that is not an image is named, not attached.
func TestMCPToolAttachesImageContent(t *testing.T) {
	env := newEnv(t)
	env.Artifacts = newMemArtifacts()
	env.MCP = fakeMCP{&messages.MCPCallResult{Output: "a chart", Images: []messages.MCPImage{
		{MediaType: "image/png", Data: pngOf(t, 20, 10)}, {MediaType: "image/png", Data: []byte("<svg/>")}}}}
	tool, err := NewMCPTool(MCPToolInfo{Server: "charts", Tool: "plot", Schema: json.RawMessage(`{"type":"object"}`)})
	if err != nil {
		t.Fatal(err)
	}
	res := tool.Run(context.Background(), env, json.RawMessage(`{}`))
	if res.IsError || len(res.Images) != 1 || res.Images[0].Width != 20 {
		t.Fatalf("%+v", res)
	}
	mustContain(t, res.Output, "a chart\n[image 1: PNG image, 20×10 px", "[image 2: the server sent image/png data of 6 bytes that is not a usable image")
}
