package imagefit

import (
	"bytes"
	"encoding/binary"
)

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// keptChunks are the PNG chunks an image needs to be drawn as it is: the critical ones and
// transparency.
var keptChunks = map[string]bool{"IHDR": true, "PLTE": true, "tRNS": true, "IDAT": true, "IEND": true}

// stripPNG returns data with only keptChunks, the way libpng treats a broken ancillary chunk
// (a colour profile or metadata with a bad checksum is dropped with a warning, the image is
// still drawn). Real images do this: the MCP reference server's logo has an iCCP chunk whose
// CRC is wrong, which Go's decoder refuses. ok is false when data's chunk structure is broken.
func stripPNG(data []byte) ([]byte, bool) {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return nil, false
	}
	out := append([]byte(nil), pngSignature...)
	for rest := data[len(pngSignature):]; len(rest) > 0; {
		if len(rest) < 12 {
			return nil, false
		}
		n := binary.BigEndian.Uint32(rest)
		if uint64(n)+12 > uint64(len(rest)) {
			return nil, false
		}
		chunk := rest[:12+n]
		if keptChunks[string(chunk[4:8])] {
			out = append(out, chunk...)
		}
		rest = rest[12+n:]
	}
	return out, true
}
