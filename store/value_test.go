package store

import (
	"encoding/json"
	"testing"
)

func TestEachValueScansOnePrefixOfOneSession(t *testing.T) {
	s, _ := openTemp(t)
	for _, kv := range []struct{ session, name string }{
		{"s1", "fs/a.go"}, {"s1", "fs/dir/b.go"}, {"s1", "goal"}, {"s2", "fs/c.go"}, {"s10", "fs/d.go"},
	} {
		if err := s.PutValue(kv.session, kv.name, kv.session+":"+kv.name); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	err := s.EachValue("s1", "fs/", func(name string, raw []byte) error {
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		got = append(got, name+"="+v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fs/a.go=s1:fs/a.go", "fs/dir/b.go=s1:fs/dir/b.go"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("EachValue = %v, want %v", got, want)
	}
	if err := s.EachValue("bad/id", "fs/", func(string, []byte) error { return nil }); err == nil {
		t.Error("an invalid session id was accepted")
	}
}
