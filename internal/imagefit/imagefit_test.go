package imagefit

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// noisy is a w×h image of random pixels: it does not compress, so its PNG is large.
func noisy(w, h int, alpha bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewSource(1))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Intn(256))
		if !alpha && i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	return img
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestFitKeepsSmallImagesAsTheyAre(t *testing.T) {
	small := image.NewPaletted(image.Rect(0, 0, 40, 30), color.Palette{color.Black, color.White})
	var g, j bytes.Buffer
	if err := gif.Encode(&g, small, nil); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, noisy(50, 20, false), nil); err != nil {
		t.Fatal(err)
	}
	webp, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		kind string
		w, h int
	}{
		{"png", encodePNG(t, noisy(64, 48, true)), "image/png", 64, 48},
		{"gif", g.Bytes(), "image/gif", 40, 30},
		{"jpeg", j.Bytes(), "image/jpeg", 50, 20},
		{"webp", webp, "image/webp", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := Fit(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if img.MediaType != tc.kind || img.Scaled || !bytes.Equal(img.Data, tc.data) {
				t.Fatalf("got %s scaled=%v (%d bytes), want %s unchanged", img.MediaType, img.Scaled, len(img.Data), tc.kind)
			}
			if tc.w != 0 && (img.Width != tc.w || img.Height != tc.h) {
				t.Fatalf("size %d×%d, want %d×%d", img.Width, img.Height, tc.w, tc.h)
			}
			if img.Width <= 0 || img.Height <= 0 {
				t.Fatalf("no size: %+v", img)
			}
		})
	}
}

func TestFitScalesDownWhatIsTooLarge(t *testing.T) {
	for _, tc := range []struct {
		name  string
		w, h  int
		alpha bool
	}{
		{"wide opaque", 1800, 300, false},
		{"tall transparent", 400, 1700, true},
		{"too many bytes within the edge", 1200, 1200, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := encodePNG(t, noisy(tc.w, tc.h, tc.alpha))
			img, err := Fit(in)
			if err != nil {
				t.Fatal(err)
			}
			if !img.Scaled || max(img.Width, img.Height) > MaxEdge || len(img.Data) > MaxBytes {
				t.Fatalf("not fitted: %d×%d, %d bytes, scaled=%v", img.Width, img.Height, len(img.Data), img.Scaled)
			}
			if img.OrigWidth != tc.w || img.OrigHeight != tc.h || img.OrigBytes != len(in) {
				t.Fatalf("original not kept: %+v", img)
			}
			got, kind, err := image.DecodeConfig(bytes.NewReader(img.Data))
			if err != nil || "image/"+kind != img.MediaType || got.Width != img.Width || got.Height != img.Height {
				t.Fatalf("fitted bytes are %s %d×%d (%v), the record says %s %d×%d", kind, got.Width, got.Height, err, img.MediaType, img.Width, img.Height)
			}
			// The aspect ratio holds to within a pixel of rounding.
			if d := img.Width*tc.h - img.Height*tc.w; d < -tc.w-tc.h || d > tc.w+tc.h {
				t.Fatalf("aspect changed: %d×%d from %d×%d", img.Width, img.Height, tc.w, tc.h)
			}
		})
	}
}

func TestFitRefusesWhatIsNotAnImage(t *testing.T) {
	good := encodePNG(t, noisy(20, 20, false))
	bomb := append([]byte(nil), good[:33]...) // signature and IHDR only
	// IHDR width and height at bytes 16..24: claim 60000×60000 (the CRC is not checked by
	// DecodeConfig before the size test fails).
	copy(bomb[16:], []byte{0, 0, 0xea, 0x60, 0, 0, 0xea, 0x60})
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"text", "not a PNG", []byte("hello, I am a .png file in name only\n")},
		{"truncated", "does not decode", good[:len(good)/2]},
		{"empty", "not a PNG", nil},
		{"bomb", "", bomb},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Fit(tc.data)
			if err == nil {
				t.Fatal("accepted")
			}
			if tc.want != "" && !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			if tc.name == "text" && !errors.Is(err, ErrNotImage) {
				t.Fatalf("error %v is not ErrNotImage", err)
			}
		})
	}
}

// TestFitDropsABrokenAncillaryChunk: the MCP reference server's logo (its iCCP chunk has a
// wrong CRC) is sent without that chunk, as libpng would draw it; a broken IDAT still fails.
func TestFitDropsABrokenAncillaryChunk(t *testing.T) {
	data, err := os.ReadFile("testdata/mcp-logo-bad-iccp-crc.png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Fit(data)
	if err != nil {
		t.Fatal(err)
	}
	if !img.Scaled || len(img.Data) >= len(data) || img.Width != 20 || img.Height != 20 {
		t.Fatalf("got %d bytes %d×%d scaled=%v", len(img.Data), img.Width, img.Height, img.Scaled)
	}
	if _, err := png.Decode(bytes.NewReader(img.Data)); err != nil {
		t.Fatalf("the sent bytes do not decode: %v", err)
	}
	bad := append([]byte(nil), data...)
	idat := bytes.Index(bad, []byte("IDAT"))
	bad[idat+10] ^= 0xff
	if _, err := Fit(bad); err == nil {
		t.Fatal("a broken IDAT was accepted")
	}
}

func TestShrinkAveragesEachBox(t *testing.T) {
	for _, tc := range []struct {
		name         string
		w, h, tw, th int
		px           func(x, y int) color.NRGBA
		want         func(x, y int) color.RGBA
	}{
		{"one colour stays that colour", 7, 5, 3, 2,
			func(x, y int) color.NRGBA { return color.NRGBA{10, 200, 30, 255} },
			func(x, y int) color.RGBA { return color.RGBA{10, 200, 30, 255} }},
		{"a 2×2 checkerboard averages to grey", 4, 4, 2, 2,
			func(x, y int) color.NRGBA { v := uint8(255 * ((x + y) % 2)); return color.NRGBA{v, v, v, 255} },
			func(x, y int) color.RGBA { return color.RGBA{128, 128, 128, 255} }},
		{"halves keep their own colour", 4, 2, 2, 1,
			func(x, y int) color.NRGBA { return color.NRGBA{uint8(250 * (x / 2)), 0, 0, 255} },
			func(x, y int) color.RGBA { return color.RGBA{uint8(250 * x), 0, 0, 255} }},
		{"same size is a copy", 3, 2, 3, 2,
			func(x, y int) color.NRGBA { return color.NRGBA{uint8(x * 40), uint8(y * 90), 7, 255} },
			func(x, y int) color.RGBA { return color.RGBA{uint8(x * 40), uint8(y * 90), 7, 255} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := image.NewNRGBA(image.Rect(10, 20, 10+tc.w, 20+tc.h)) // a non-zero origin, as a sub-image has
			for y := 0; y < tc.h; y++ {
				for x := 0; x < tc.w; x++ {
					src.SetNRGBA(10+x, 20+y, tc.px(x, y))
				}
			}
			got := shrink(src, tc.tw, tc.th)
			if got.Bounds() != image.Rect(0, 0, tc.tw, tc.th) {
				t.Fatalf("bounds %v, want %dx%d", got.Bounds(), tc.tw, tc.th)
			}
			for y := 0; y < tc.th; y++ {
				for x := 0; x < tc.tw; x++ {
					if c, want := got.RGBAAt(x, y), tc.want(x, y); c != want {
						t.Errorf("pixel (%d,%d) = %v, want %v", x, y, c, want)
					}
				}
			}
		})
	}
}
