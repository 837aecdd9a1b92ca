package messages

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden JSON files under testdata/")

// goldenTime is the one time every filled-in sample carries.
var goldenTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fill sets every field of v to a value derived from the field's name, so each golden file shows
// every field: a renamed or dropped json tag changes the file.
func fill(v reflect.Value, name string, depth int) {
	if depth > 5 || !v.CanSet() {
		return
	}
	if v.Type() == reflect.TypeOf(time.Time{}) {
		v.Set(reflect.ValueOf(goldenTime))
		return
	}
	if v.Type() == reflect.TypeOf(json.RawMessage{}) {
		v.SetBytes([]byte(`{"raw":"` + name + `"}`))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(name)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(len(name)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(len(name)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(len(name)) / 2)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), name, depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), name, depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, "key", depth+1)
		fill(e, name, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), v.Type().Field(i).Name, depth+1)
			}
		}
	}
}

func sample(v any) any {
	fill(reflect.ValueOf(v).Elem(), "x", 0)
	return v
}

// checkGolden compares v's JSON with testdata/name.json (or writes it with -update).
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test ./messages -update to write it)", name, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed on the wire (a renamed or dropped field?); if intended, run go test ./messages -update\n got: %s\nwant: %s", path, got, want)
	}
}

func TestGoldenWireMessages(t *testing.T) {
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, kind := range names {
		msg := sample(kinds[kind]())
		data, err := Encode(msg)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var w Wire
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "msg."+kind, &w)
		back, err := Decode(data)
		if err != nil || !reflect.DeepEqual(back, msg) {
			t.Errorf("%s: round trip: %v\n got %#v\nwant %#v", kind, err, back, msg)
		}
	}
}

func TestGoldenEvents(t *testing.T) {
	seen := map[EventType]bool{}
	for _, typ := range EventTypes() {
		if seen[typ] {
			t.Errorf("event type %s is listed twice", typ)
		}
		seen[typ] = true
		data := sample(NewEventData(typ))
		raw, err := json.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		env := &Envelope{V: Version, Seq: 7, TS: goldenTime, NS: "ns", Session: "s1", Agent: "root", Type: typ, Data: raw}
		checkGolden(t, "event."+string(typ), env)
		back, err := env.DecodeData()
		if err != nil || !reflect.DeepEqual(back, data) {
			t.Errorf("%s: round trip: %v", typ, err)
		}
	}
}

// Every testdata file belongs to a message or an event that exists: a removed one is noticed.
func TestNoStaleGoldenFiles(t *testing.T) {
	if *update {
		t.Skip("rewriting")
	}
	want := map[string]bool{}
	for k := range kinds {
		want["msg."+k+".json"] = true
	}
	for _, typ := range EventTypes() {
		want["event."+string(typ)+".json"] = true
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s belongs to no message or event; delete it", f)
		}
	}
}
