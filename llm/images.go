package llm

import (
	"fmt"
	"strings"

	"github.com/troupe-dev/troupe/internal/imagefit"
)

// visionNames are substrings of the lower-case model name of families that accept images;
// visionPrefixes are name prefixes (OpenAI's o-series, too short to match anywhere).
var (
	visionNames = []string{"claude", "gemini", "gpt-4o", "gpt-4.1", "gpt-4-turbo", "gpt-5", "chatgpt-4o",
		"-vl", "vl-", "llava", "vision", "pixtral", "gemma3", "gemma-3", "llama-4", "llama4",
		"mistral-small-3", "mistral-medium", "glm-4v", "glm-4.5v", "minicpm-v", "omni"}
	visionPrefixes = []string{"o1", "o3", "o4"}
)

// acceptsImages says model (with or without its provider prefix) takes image input.
func acceptsImages(model string) bool {
	name := strings.ToLower(model)
	if _, rest, ok := strings.Cut(name, "/"); ok {
		name = rest
	}
	for _, p := range visionPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	for _, v := range visionNames {
		if strings.Contains(name, v) {
			return true
		}
	}
	return false
}

// LoadImages returns msgs with each image's Data read through load, when model accepts images;
// messages without images are shared, the others copied. An image that cannot be read keeps
// no Data and is sent as its placeholder. The caller runs this off its actor: load reads the
// artifact store.
func LoadImages(msgs []Message, model string, load func(ref string) ([]byte, error)) []Message {
	if !QuirksFor(model).Vision {
		return msgs
	}
	var out []Message
	for i, m := range msgs {
		if len(m.Images) == 0 {
			continue
		}
		if out == nil {
			out = append([]Message(nil), msgs...)
		}
		imgs := make([]Image, len(m.Images))
		for j, img := range m.Images {
			imgs[j] = img
			if data, err := load(img.Ref); err == nil && len(data) > 0 && len(data) <= imagefit.MaxBytes {
				imgs[j].Data = data
			}
		}
		out[i].Images = imgs
	}
	if out == nil {
		return msgs
	}
	return out
}

// imageParts splits m's images into those the adapter sends to model and one placeholder line
// for the rest: a model without vision, or an image whose bytes were not loaded, gets a line
// saying what the image is instead of a failed request.
func imageParts(m Message, model string) (send []Image, placeholder string) {
	var lines []string
	vision := QuirksFor(model).Vision
	for _, img := range m.Images {
		what := imagefit.Describe(img.MediaType, img.Width, img.Height, img.Bytes)
		switch {
		case !vision:
			lines = append(lines, fmt.Sprintf("[image not shown: %s; the model %s does not accept images]", what, model))
		case len(img.Data) == 0:
			lines = append(lines, fmt.Sprintf("[image not shown: %s; its stored copy (ref=%s) could not be read]", what, img.Ref))
		default:
			send = append(send, img)
		}
	}
	return send, strings.Join(lines, "\n")
}

// withPlaceholder appends a placeholder line to text.
func withPlaceholder(text, placeholder string) string {
	switch {
	case placeholder == "":
		return text
	case text == "":
		return placeholder
	}
	return text + "\n" + placeholder
}
