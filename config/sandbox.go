package config

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// sandboxSetting is the sandbox as a file writes it: `sandbox = "auto"`, or a [sandbox] table
// with mode and the paths commands may not read (deny_read, added to troupe's list of
// credential locations) or may read after all (allow_read, taken off that list).
type sandboxSetting struct {
	Mode      *string  `toml:"mode"`
	DenyRead  []string `toml:"deny_read"`
	AllowRead []string `toml:"allow_read"`
}

// UnmarshalTOML reads either spelling (go-toml hands over the value's raw text).
func (s *sandboxSetting) UnmarshalTOML(data []byte) error {
	text := strings.TrimSpace(string(data))
	if strings.HasPrefix(text, `"`) || strings.HasPrefix(text, "'") {
		var v struct {
			V string `toml:"v"`
		}
		if err := toml.Unmarshal([]byte("v = "+text), &v); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		s.Mode = &v.V
		return nil
	}
	if strings.HasPrefix(text, "{") {
		text = "[sandbox]\n" + strings.TrimSuffix(strings.TrimPrefix(text, "{"), "}")
		text = strings.ReplaceAll(text, ",", "\n") // an inline table's keys, one a line
	} else {
		text = "[sandbox]\n" + text
	}
	var v struct {
		T sandboxSetting `toml:"sandbox"`
	}
	dec := toml.NewDecoder(bytes.NewReader([]byte(text))).DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("[sandbox]: %w (known keys: mode, deny_read, allow_read)", err)
	}
	*s = v.T
	return nil
}
