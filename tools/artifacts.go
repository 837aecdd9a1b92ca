package tools

import (
	"bytes"
	"fmt"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// ArtifactStore keeps whole outputs that are too large for a result, content-addressed; the
// session's store implements it.
type ArtifactStore interface {
	PutArtifact(data []byte) (ref string, err error)
	Artifact(ref string) ([]byte, error)
}

// maxArtifactBytes bounds one artifact (the store refuses values near its 16 MiB value-log
// file); a larger output keeps its first maxArtifactBytes, cut at a line end.
const maxArtifactBytes = 8 << 20

// ArtifactOverflow is an Overflow for Registry.SetOverflow: it stores the whole output in st
// and tells the model where to page through it. If storing fails, the note says so and the
// model gets the cut output only.
func ArtifactOverflow(st ArtifactStore) Overflow {
	return func(call Call, spec Spec, full string) string {
		return storeArtifact(st, []byte(full), spec.resultBudget()/2)
	}
}

// storeArtifact stores data and returns the note for the model. headBytes is about how much of
// the output the model sees from the start, to suggest where to continue.
func storeArtifact(st ArtifactStore, data []byte, headBytes int) string {
	total, lines := len(data), countLines(string(data))
	kept := data
	if len(kept) > maxArtifactBytes {
		kept = kept[:maxArtifactBytes]
		if i := bytes.LastIndexByte(kept, '\n'); i > 0 {
			kept = kept[:i+1]
		}
	}
	ref, err := st.PutArtifact(kept)
	if err != nil {
		return fmt.Sprintf("the whole output (%s, %s) could not be kept: %v", textfmt.Count(total, "byte"), textfmt.Count(lines, "line"), err)
	}
	next := bytes.Count(data[:min(headBytes, len(data))], []byte{'\n'}) + 1
	stored := "the whole output"
	if len(kept) < total {
		stored = fmt.Sprintf("the first %s (%s) of the output", textfmt.Count(len(kept), "byte"), textfmt.Count(countLines(string(kept)), "line"))
	}
	return fmt.Sprintf("output was %d bytes, %d lines; %s is stored as ref=%s: read_artifact ref=%s offset=%d to page through it",
		total, lines, stored, ref, ref, next)
}
