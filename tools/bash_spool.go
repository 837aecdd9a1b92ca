package tools

import (
	"fmt"
	"io"
	"os"
)

// outputSpool keeps a command's whole output (up to maxArtifactBytes) in a temp file while
// headTail keeps what the model sees, so an output too long for the result can still be
// stored whole as an artifact. It owns its file: discard removes it.
type outputSpool struct {
	f       *os.File
	written int
}

// newOutputSpool returns nil when there is nowhere to keep the output (no artifact store, or
// the temp file cannot be made: the call then just has the cut output).
func newOutputSpool(env *Env) *outputSpool {
	if env.Artifacts == nil {
		return nil
	}
	f, err := os.CreateTemp(env.TempDir, "bash-output-*")
	if err != nil {
		return nil
	}
	return &outputSpool{f: f}
}

func (s *outputSpool) Write(p []byte) (int, error) {
	if room := maxArtifactBytes + 1 - s.written; room > 0 {
		n, err := s.f.Write(p[:min(room, len(p))])
		s.written += n
		if err != nil {
			return len(p), nil // the spool is best effort; the command's output must keep flowing
		}
	}
	return len(p), nil
}

// store saves the spooled output as an artifact and returns the note for the model.
func (s *outputSpool) store(st ArtifactStore, total, headBytes int) string {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Sprintf("the whole output could not be kept: %v", err)
	}
	data, err := io.ReadAll(s.f)
	if err != nil {
		return fmt.Sprintf("the whole output could not be kept: %v", err)
	}
	note := storeArtifact(st, data, headBytes)
	if total > len(data) {
		note += fmt.Sprintf(" (the output went on to %d bytes)", total)
	}
	return note
}

func (s *outputSpool) discard() {
	s.f.Close()
	_ = os.Remove(s.f.Name())
}
