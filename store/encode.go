package store

import (
	"encoding/json"
	"strconv"

	"github.com/troupe-dev/troupe/internal/jsonappend"
)

// A session writes three or four log entries and two metas per turn, each encoded on its
// actor: they are written by hand, byte for byte what json.Marshal writes
// (TestEntryAndMetaEncodingMatchMarshal sets every field by reflection, so a field added and
// not written here fails it). Anything json.Marshal would refuse goes to json.Marshal, for its
// own error.

// marshalEntry is json.Marshal(e).
func marshalEntry(b []byte, e *Entry) ([]byte, error) {
	start := len(b)
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = appendField(b, `,"kind":`, string(e.Kind))
	b = append(b, `,"time":`...)
	b, err := jsonappend.Time(b, e.Time)
	if err != nil {
		return marshalInstead(b[:start], e)
	}
	b = appendOmitted(b, `,"text":`, e.Text)
	b = appendOmitted(b, `,"reasoning":`, e.Reasoning)
	if len(e.ReasoningBlocks) > 0 {
		if b, err = jsonappend.Raw(append(b, `,"reasoning_blocks":`...), e.ReasoningBlocks); err != nil {
			return marshalInstead(b[:start], e)
		}
	}
	b = appendOmitted(b, `,"model":`, e.Model)
	if len(e.Calls) > 0 {
		b = append(b, `,"calls":[`...)
		for i, c := range e.Calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendField(b, `{"id":`, c.ID)
			b = appendField(b, `,"name":`, c.Name)
			b = append(appendField(b, `,"args":`, c.Args), '}')
		}
		b = append(b, ']')
	}
	b = appendOmitted(b, `,"call_id":`, e.CallID)
	b = appendOmitted(b, `,"tool_name":`, e.ToolName)
	if e.IsError {
		b = append(b, `,"is_error":true`...)
	}
	b = appendOmitted(b, `,"event":`, e.Event)
	if len(e.Data) > 0 {
		if b, err = jsonappend.Raw(append(b, `,"data":`...), e.Data); err != nil {
			return marshalInstead(b[:start], e)
		}
	}
	if len(e.Images) > 0 {
		b = append(b, `,"images":[`...)
		for i, img := range e.Images {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendField(b, `{"ref":`, img.Ref)
			b = appendField(b, `,"media_type":`, img.MediaType)
			b = appendInt(b, `,"width":`, int64(img.Width))
			b = appendInt(b, `,"height":`, int64(img.Height))
			b = append(appendInt(b, `,"bytes":`, int64(img.Bytes)), '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// marshalMeta is json.Marshal(m).
func marshalMeta(b []byte, m *SessionMeta) ([]byte, error) {
	start := len(b)
	b = appendField(b, `{"id":`, m.ID)
	b = appendOmitted(b, `,"parent":`, m.Parent)
	b = appendOmitted(b, `,"agent":`, m.Agent)
	b = appendOmitted(b, `,"model":`, m.Model)
	b = appendOmitted(b, `,"base_url":`, m.BaseURL)
	b = appendOmitted(b, `,"task":`, m.Task)
	b = appendOmitted(b, `,"mode":`, m.Mode)
	b = appendOmitted(b, `,"workspace":`, m.Workspace)
	b = appendOmitted(b, `,"cwd":`, m.Cwd)
	b = appendOmitted(b, `,"prompt_mode":`, m.PromptMode)
	if len(m.Allowlist) > 0 {
		b = jsonappend.Strings(append(b, `,"allowlist":`...), m.Allowlist)
	}
	b = appendField(b, `,"status":`, m.Status)
	b = appendOmitted(b, `,"error":`, m.Error)
	b = append(b, `,"created":`...)
	b, err := jsonappend.Time(b, m.Created)
	if err != nil {
		return marshalInstead(b[:start], m)
	}
	b = append(b, `,"updated":`...)
	if b, err = jsonappend.Time(b, m.Updated); err != nil {
		return marshalInstead(b[:start], m)
	}
	b = appendInt(b, `,"turns":`, int64(m.Turns))
	b = appendInt(b, `,"input_tokens":`, int64(m.InputTokens))
	b = appendInt(b, `,"output_tokens":`, int64(m.OutputTokens))
	if m.CachedInputTokens != 0 {
		b = appendInt(b, `,"cached_input_tokens":`, int64(m.CachedInputTokens))
	}
	if m.EventSeq != 0 {
		b = strconv.AppendUint(append(b, `,"event_seq":`...), m.EventSeq, 10)
	}
	if m.LogSeq != 0 {
		b = strconv.AppendUint(append(b, `,"log_seq":`...), m.LogSeq, 10)
	}
	return append(b, '}'), nil
}

// marshalInstead appends json.Marshal(v), or returns its error.
func marshalInstead(b []byte, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

func appendField(b []byte, name, s string) []byte {
	return jsonappend.String(append(b, name...), s)
}

// appendOmitted is appendField for a field tagged omitempty.
func appendOmitted(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	return appendField(b, name, s)
}

func appendInt(b []byte, name string, n int64) []byte {
	return strconv.AppendInt(append(b, name...), n, 10)
}
