package tools

import (
	"errors"
	"fmt"

	"github.com/troupe-dev/troupe/internal/imagefit"
	"github.com/troupe-dev/troupe/messages"
)

// Images a tool returns (read_file of an image file, an MCP tool's image content) are fitted to
// the providers' limits (internal/imagefit), kept in the artifact store and carried in the
// Result by reference; the session sends them to a model that accepts images, right after the
// tool results, and a line saying what they are to one that does not (docs/ARCHITECTURE.md
// "Images"). The Result's text always describes each image, so the log reads without them.

// errNoArtifacts says the session keeps no artifacts, so an image cannot be attached.
var errNoArtifacts = errors.New("this session keeps no artifacts, so images cannot be attached")

// attachImage fits data, stores it and returns its reference and a line describing it (what
// the file was and, when it was scaled, what is sent).
func attachImage(env *Env, data []byte) (messages.Image, string, error) {
	img, err := imagefit.Fit(data)
	if err != nil {
		return messages.Image{}, "", err
	}
	line := imagefit.Describe(img.OrigType, img.OrigWidth, img.OrigHeight, img.OrigBytes)
	if img.Scaled {
		line += fmt.Sprintf(" (sent as %s to fit the model's limits)", imagefit.Describe(img.MediaType, img.Width, img.Height, len(img.Data)))
	}
	if env.Artifacts == nil {
		return messages.Image{}, line, errNoArtifacts
	}
	ref, err := env.Artifacts.PutArtifact(img.Data)
	if err != nil {
		return messages.Image{}, line, fmt.Errorf("store the image: %w", err)
	}
	return messages.Image{Ref: ref, MediaType: img.MediaType, Width: img.Width, Height: img.Height, Bytes: len(img.Data)}, line, nil
}
