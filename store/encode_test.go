package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestEntryAndMetaEncodingMatchMarshal: log entries and session metas written by hand are
// byte for byte what json.Marshal writes, with every field zero, set to awkward values, or set
// to plain ones. Every field is set by reflection, so one added to Entry or SessionMeta and
// not written by hand fails here.
func TestEntryAndMetaEncodingMatchMarshal(t *testing.T) {
	strs := []string{"", "plain", `quo"te \ back`, "<b>&amp;</b>", "tab\tnew\nline\x00\x1f\x7f", "café ✓ 🎉", "\u2028", "bad \xff utf-8"}
	raws := []string{`{"a":1}`, ` { "a" : [1, "<x>"] }`, `"\u2028"`, "[\n1\n]", `null`}
	times := []time.Time{{}, time.Date(2026, 11, 28, 3, 0, 0, 7, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 120000000, time.FixedZone("x", 3600))}
	for i, s := range strs {
		for _, v := range []any{&Entry{}, &SessionMeta{}} {
			p := reflect.New(reflect.TypeOf(v).Elem())
			fillAll(t, p.Elem(), s, raws[i%len(raws)], times[i%len(times)], i-3)
			sameAsMarshal(t, p.Interface())
		}
	}
	sameAsMarshal(t, &Entry{})
	sameAsMarshal(t, &SessionMeta{})
	sameAsMarshal(t, &Entry{Kind: KindAssistant, Calls: []Call{{ID: "a"}, {ID: "b", Name: "bash", Args: `{"command":"ls"}`}}, Images: []Image{{}, {Ref: "r"}}})
	sameAsMarshal(t, &SessionMeta{ID: "s", Allowlist: []string{"bash(go test *)", "edit_file"}, EventSeq: 1 << 40})
	// What json.Marshal refuses is refused with its error.
	for _, bad := range []any{&Entry{Data: json.RawMessage(`{`)}, &Entry{ReasoningBlocks: json.RawMessage(`[1,`)},
		&Entry{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, &SessionMeta{Updated: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}} {
		var err error
		switch v := bad.(type) {
		case *Entry:
			_, err = marshalEntry(nil, v)
		case *SessionMeta:
			_, err = marshalMeta(nil, v)
		}
		if _, want := json.Marshal(bad); err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%+v: err %v, json.Marshal's %v", bad, err, want)
		}
	}
}

func sameAsMarshal(t *testing.T, v any) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	switch v := v.(type) {
	case *Entry:
		got, err = marshalEntry([]byte("xyz"), v)
	case *SessionMeta:
		got, err = marshalMeta([]byte("xyz"), v)
	}
	if err != nil || !bytes.Equal(got, append([]byte("xyz"), want...)) {
		t.Errorf("%T:\n got %s (%v)\nwant xyz%s", v, got, err, want)
	}
}

// fillAll sets every field of v: strings to s, raw JSON to raw, times to tm, numbers from n,
// booleans to n being odd, slices to two elements filled alike.
func fillAll(t *testing.T, v reflect.Value, s, raw string, tm time.Time, n int) {
	switch v.Type() {
	case reflect.TypeOf(time.Time{}):
		v.Set(reflect.ValueOf(tm))
		return
	case reflect.TypeOf(json.RawMessage{}):
		v.SetBytes([]byte(raw))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(n) * 1_000_003)
	case reflect.Uint64:
		v.SetUint(uint64(n+3) * 1_000_003)
	case reflect.Bool:
		v.SetBool(n%2 != 0)
	case reflect.Slice:
		sl := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillAll(t, sl.Index(i), s, raw, tm, n+i)
		}
		v.Set(sl)
	case reflect.Struct:
		for i := range v.NumField() {
			fillAll(t, v.Field(i), s, raw, tm, n)
		}
	default:
		t.Fatalf("fillAll knows no %s", v.Type())
	}
}
