// Package imagefit turns the bytes of an image file into an image a model may be sent: it
// recognises PNG, JPEG, GIF and WebP by their content (not their name), refuses what is not one
// of them or does not decode, and scales down and recompresses what is larger than the limits
// every supported provider accepts (docs/ARCHITECTURE.md "Images").
package imagefit

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers the GIF decoder with image.Decode
	"image/jpeg"
	"image/png"
	"net/http"

	_ "golang.org/x/image/webp" // registers the WebP decoder with image.Decode
)

// The limits one image is fitted to: the strictest of the providers troupe speaks (Anthropic's:
// 5 MB per image after base64, a long edge past 1568 px is scaled down by the server anyway),
// so one fitted copy serves every wire.
const (
	MaxEdge = 1568
	// MaxBytes is the encoded size allowed before base64 (which adds a third): 5 MB on the
	// wire.
	MaxBytes = 3_750_000
	// MaxPixels refuses a decompression bomb before it is decoded: a 10 KB PNG can claim
	// 50 000 × 50 000 pixels.
	MaxPixels = 64 << 20
	// MaxInputBytes bounds the file read to look at: larger is refused, not read.
	MaxInputBytes = 32 << 20
)

// Image is a fitted image: its encoded bytes, media type and size in pixels. Orig* describe the
// file it came from.
type Image struct {
	Data                  []byte
	MediaType             string
	Width, Height         int
	OrigType              string
	OrigWidth, OrigHeight int
	OrigBytes             int
	// Scaled says the image sent is not the file's bytes: scaled down, recompressed, or a PNG
	// stripped of a broken ancillary chunk.
	Scaled bool
}

// Sniff returns the image media type of data's first bytes ("image/png", …), or "" when
// they are not one of the four formats a model accepts.
func Sniff(head []byte) string {
	switch t := http.DetectContentType(head); t {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return t
	}
	return ""
}

// ErrNotImage says the bytes are not a PNG, JPEG, GIF or WebP image.
var ErrNotImage = errors.New("not a PNG, JPEG, GIF or WebP image")

// Fit checks data and returns it as is when it is within the limits, else scaled so its long
// edge is at most MaxEdge and re-encoded (PNG when it has transparency and fits, else JPEG at
// falling quality) until it is at most MaxBytes.
func Fit(data []byte) (*Image, error) {
	kind := Sniff(data)
	if kind == "" {
		return nil, ErrNotImage
	}
	if len(data) > MaxInputBytes {
		return nil, fmt.Errorf("%s of %d bytes is larger than the %d MB an image may be", kind, len(data), MaxInputBytes>>20)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s header does not decode: %w", kind, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxPixels {
		return nil, fmt.Errorf("%s claims %d×%d pixels, more than the %d megapixels an image may have", kind, cfg.Width, cfg.Height, MaxPixels>>20)
	}
	out := &Image{Data: data, MediaType: kind, Width: cfg.Width, Height: cfg.Height,
		OrigType: kind, OrigWidth: cfg.Width, OrigHeight: cfg.Height, OrigBytes: len(data)}
	// Decoding the whole image also proves a file whose header is fine is not cut short.
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil && kind == "image/png" {
		// A broken ancillary chunk: the image without it is what any viewer shows.
		if stripped, ok := stripPNG(data); ok {
			if img, _, err = image.Decode(bytes.NewReader(stripped)); err == nil {
				data, out.Data, out.Scaled = stripped, stripped, true
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s does not decode: %w", kind, err)
	}
	if max(cfg.Width, cfg.Height) <= MaxEdge && len(data) <= MaxBytes {
		return out, nil
	}
	return refit(out, img)
}

// refit scales img down to MaxEdge and encodes it small enough.
func refit(out *Image, img image.Image) (*Image, error) {
	w, h := out.OrigWidth, out.OrigHeight
	if long := max(w, h); long > MaxEdge {
		w, h = max(1, w*MaxEdge/long), max(1, h*MaxEdge/long)
	}
	for {
		dst := shrink(img, w, h)
		if data, kind, ok := encodeWithin(dst); ok {
			out.Data, out.MediaType, out.Width, out.Height, out.Scaled = data, kind, w, h, true
			return out, nil
		}
		if w < 64 || h < 64 {
			return nil, fmt.Errorf("%s does not compress under %d bytes", out.OrigType, MaxBytes)
		}
		w, h = w*3/4, h*3/4 // still too large at the lowest quality: fewer pixels
	}
}

// encodeWithin encodes img as PNG when it has transparency and fits, else as JPEG at the
// highest of a few qualities that fits.
func encodeWithin(img *image.RGBA) ([]byte, string, bool) {
	var buf bytes.Buffer
	if !img.Opaque() {
		if png.Encode(&buf, img) == nil && buf.Len() <= MaxBytes {
			return buf.Bytes(), "image/png", true
		}
	}
	for _, q := range []int{85, 70, 50} {
		buf.Reset()
		if jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}) == nil && buf.Len() <= MaxBytes {
			return buf.Bytes(), "image/jpeg", true
		}
	}
	return nil, "", false
}

// Describe is one line naming an image for a model or a user that does not see it: its type,
// pixel size and bytes.
func Describe(mediaType string, width, height, size int) string {
	return fmt.Sprintf("%s image, %d×%d px, %s", formatName(mediaType), width, height, byteSize(size))
}

func formatName(mediaType string) string {
	switch mediaType {
	case "image/png":
		return "PNG"
	case "image/jpeg":
		return "JPEG"
	case "image/gif":
		return "GIF"
	case "image/webp":
		return "WebP"
	}
	return mediaType
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
