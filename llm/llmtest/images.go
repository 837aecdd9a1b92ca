package llmtest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
)

// The image rules the real APIs enforce, checked on every request so a test whose adapter
// sends an image in the wrong shape gets the 400 a provider would give (the tests then assert
// where the image went). Each rule names the provider's own wording where it has one.

// maxImageBytes is the largest decoded image the servers take (Anthropic's 5 MB).
const maxImageBytes = 5 << 20

// checkImages returns what the server at path would refuse in body's images, "" when nothing.
func checkImages(path string, body map[string]any) string {
	switch {
	case strings.HasSuffix(path, "/messages"):
		return anthropicImages(body)
	case strings.Contains(path, "GenerateContent"):
		return geminiImages(body)
	case strings.HasSuffix(path, "/chat/completions"):
		return openAIImages(body)
	}
	return ""
}

// checkImage checks one image's base64 data against its declared media type.
func checkImage(mediaType, data string) string {
	switch mediaType {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return fmt.Sprintf("image media type %q is not one of image/jpeg, image/png, image/gif, image/webp", mediaType)
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil || len(raw) == 0 {
		return "image data is not valid base64"
	}
	if len(raw) > maxImageBytes {
		return fmt.Sprintf("image exceeds 5 MB maximum: %d bytes", len(raw))
	}
	if got := http.DetectContentType(raw); got != mediaType {
		return fmt.Sprintf("Image does not match the provided media type %s (it is %s)", mediaType, got)
	}
	return ""
}

func list(v any) []any         { l, _ := v.([]any); return l }
func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func str(v any) string         { s, _ := v.(string); return s }

// anthropicImages: image blocks in user turns or inside tool_result content, with a base64
// source.
func anthropicImages(body map[string]any) string {
	var check func(role string, blocks []any) string
	check = func(role string, blocks []any) string {
		for _, b := range blocks {
			block := obj(b)
			switch str(block["type"]) {
			case "image":
				if role != "user" {
					return "messages: image blocks are only allowed in user turns"
				}
				src := obj(block["source"])
				if str(src["type"]) != "base64" {
					return fmt.Sprintf("messages: image source type %q is not base64", str(src["type"]))
				}
				if msg := checkImage(str(src["media_type"]), str(src["data"])); msg != "" {
					return "messages: " + msg
				}
			case "tool_result":
				if msg := check(role, list(block["content"])); msg != "" {
					return msg
				}
			}
		}
		return ""
	}
	for _, m := range list(body["messages"]) {
		msg := obj(m)
		if bad := check(str(msg["role"]), list(msg["content"])); bad != "" {
			return bad
		}
	}
	return ""
}

// geminiImages: inlineData parts in user turns.
func geminiImages(body map[string]any) string {
	for _, c := range list(body["contents"]) {
		content := obj(c)
		for _, p := range list(content["parts"]) {
			blob := obj(obj(p)["inlineData"])
			if blob == nil {
				continue
			}
			if str(content["role"]) != "user" {
				return "inline data is only accepted in user content"
			}
			if msg := checkImage(str(blob["mimeType"]), str(blob["data"])); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// openAIImages: image_url parts with data: URLs, in user messages only.
func openAIImages(body map[string]any) string {
	for _, m := range list(body["messages"]) {
		msg := obj(m)
		for _, p := range list(msg["content"]) {
			part := obj(p)
			if str(part["type"]) != "image_url" {
				continue
			}
			if role := str(msg["role"]); role != "user" {
				return fmt.Sprintf("Invalid 'messages': image_url parts are only allowed for messages with role 'user', not %q", role)
			}
			url := str(obj(part["image_url"])["url"])
			head, data, ok := strings.Cut(url, ",")
			mediaType, isBase64 := strings.CutSuffix(strings.TrimPrefix(head, "data:"), ";base64")
			if !ok || !strings.HasPrefix(head, "data:") || !isBase64 {
				return "Invalid image_url: expected a base64 data URL"
			}
			if bad := checkImage(mediaType, data); bad != "" {
				return bad
			}
		}
	}
	return ""
}
