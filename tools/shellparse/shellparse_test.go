package shellparse

import (
	"reflect"
	"strings"
	"testing"
)

func texts(s *Script) []string {
	var out []string
	for _, c := range s.Commands {
		out = append(out, c.Text())
	}
	return out
}

func TestParseListsWhatBashRuns(t *testing.T) {
	cases := []struct {
		src      string
		commands []string
		writes   []string
		unknown  bool
	}{
		{`"rm" a`, []string{"rm a"}, nil, false},
		{`r''m a && \rm b`, []string{"rm a", "rm b"}, nil, false},
		{`$'\x72m' a`, []string{"rm a"}, nil, false},
		{`echo "a \"b\" \$c"`, []string{`echo a "b" $c`}, nil, false},
		{`echo "$HOME"`, []string{`echo "$HOME"`}, nil, false},
		{`sudo -u me env A=1 rm a`, []string{"sudo -u me env A=1 rm a", "env A=1 rm a", "rm a"}, nil, false},
		{`bash -c 'rm a; echo b > c'`, []string{"bash -c rm a; echo b > c", "rm a", "echo b"}, []string{"c"}, false},
		{`echo x >> log 2>&1 | tee -a t1 t2`, []string{"echo x", "tee -a t1 t2"}, []string{"log", "t1", "t2"}, false},
		{`cat <<EOF > out` + "\nrm a\nEOF", []string{"cat"}, []string{"out"}, false},
		{`find . -exec rm {} +`, []string{"find . -exec rm {} +", "rm {}"}, nil, false},
		{`$P a`, []string{"$P a"}, nil, true},
		{`eval "$P"`, []string{`eval "$P"`}, nil, true},
		{`echo 'open`, nil, nil, true},
		{`command -v rm`, []string{"command -v rm"}, nil, false},
	}
	for _, c := range cases {
		s := Parse(c.src)
		if got := texts(s); !reflect.DeepEqual(got, c.commands) {
			t.Errorf("%q: commands %q, want %q", c.src, got, c.commands)
		}
		if !reflect.DeepEqual(s.Writes, c.writes) {
			t.Errorf("%q: writes %q, want %q", c.src, s.Writes, c.writes)
		}
		if why, unknown := s.Unprovable(); unknown != c.unknown {
			t.Errorf("%q: unprovable %v (%s), want %v", c.src, unknown, why, c.unknown)
		}
	}
}

func TestParseNotesRiskAndWrapping(t *testing.T) {
	s := Parse(`doas nice rm a`)
	if !reflect.DeepEqual(s.Risks, []string{"doas"}) {
		t.Errorf("risks %q", s.Risks)
	}
	last := s.Commands[len(s.Commands)-1]
	if last.Text() != "rm a" || !last.Wrapped || !reflect.DeepEqual(last.Via, []string{"doas", "nice"}) {
		t.Errorf("inner command %+v", last)
	}
	if c := Parse(`/bin/rm a`).Commands[0]; c.BaseText() != "rm a" {
		t.Errorf("base text %q", c.BaseText())
	}
	if c := Parse(`ls | xargs rm`).Commands[2]; !c.MoreArgs || !strings.HasSuffix(c.Texts()[1], " …") {
		t.Errorf("xargs' command %+v", c)
	}
}

func TestParseBoundsNesting(t *testing.T) {
	src := "rm a"
	for i := 0; i <= MaxDepth; i++ {
		src = "bash -c '" + strings.ReplaceAll(src, "'", `'\''`) + "'"
	}
	why, unknown := Parse(src).Unprovable()
	if !unknown || !strings.Contains(why, "nested") {
		t.Fatalf("nesting %d deep: unprovable %v (%s)", MaxDepth+1, unknown, why)
	}
}

func TestParsePlain(t *testing.T) {
	p, ok := ParsePlain(`cd 'a b' && nl -ba "f.go" | sed -n '1,5p'`)
	want := Plain{Commands: [][]string{{"cd", "a b"}, {"nl", "-ba", "f.go"}, {"sed", "-n", "1,5p"}}, Ops: []string{"&&", "|"}}
	if !ok || !reflect.DeepEqual(p, want) {
		t.Fatalf("got %+v %v, want %+v", p, ok, want)
	}
	for _, src := range []string{"cat a > b", "cat $f", "cat *.go", "cat ~/a", "X=1 cat a", "cat a; cat b", "cat a || b", "(cat a)", ""} {
		if _, ok := ParsePlain(src); ok {
			t.Errorf("%q read as plain", src)
		}
	}
}
