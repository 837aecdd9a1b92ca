package imagefit

import (
	"image"
	"image/draw"
)

// shrink scales src down to w×h (each no larger than src's) with a box filter: every source
// pixel falls in one destination pixel, which is the average of those that fall in it. The
// source is read a row at a time through image/draw's conversions (fast for the decoders'
// RGBA, NRGBA, YCbCr and Gray images), so a large image is never copied whole.
func shrink(src image.Image, w, h int) *image.RGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	row := image.NewRGBA(image.Rect(0, 0, sw, 1))
	sums := make([]uint64, w*5) // per destination pixel of the row being built: R, G, B, A, count
	flush := func(y int) {
		out := dst.Pix[y*dst.Stride:]
		for x := 0; x < w; x++ {
			s := sums[x*5 : x*5+5]
			if n := s[4]; n > 0 {
				for c := 0; c < 4; c++ {
					out[x*4+c] = uint8((s[c] + n/2) / n)
				}
			}
			clear(s)
		}
	}
	ty := 0
	for sy := 0; sy < sh; sy++ {
		if y := sy * h / sh; y != ty {
			flush(ty)
			ty = y
		}
		draw.Draw(row, row.Bounds(), src, image.Pt(b.Min.X, b.Min.Y+sy), draw.Src)
		for sx := 0; sx < sw; sx++ {
			p, s := row.Pix[sx*4:sx*4+4], sums[(sx*w/sw)*5:]
			s[0] += uint64(p[0])
			s[1] += uint64(p[1])
			s[2] += uint64(p[2])
			s[3] += uint64(p[3])
			s[4]++
		}
	}
	flush(ty)
	return dst
}
