package textcall

import (
	"encoding/json"
	"html"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// The XML tool-use form of Cline and Roo Code, where the tool's name is the tag and each
// argument is a child tag. Models used in those harnesses keep writing it elsewhere
// (Qwen3-Coder in Roo-Code#10464):
//
//	<read_file>
//	<path>src/main.go</path>
//	</read_file>
//
// Roo's multi-file read wraps the arguments as <args><file><path>…</path></file></args>; a
// lone <args> or <file> child is unwrapped, and several <file> children become a paths list
// (Roo-Code#8858: its system prompt teaches up to 15 files per read). The tag carries no call marker of its own, so a
// call counts only when its name is Known and its body holds argument tags and nothing else,
// or one bare value with the element alone on its line (<read_file> a.py </read_file>,
// cline#4839), or a few bare lines (bareLines): prose or HTML that happens to use a tool's name as a tag stays prose. Values
// written as escaped XML text (&amp;&amp;, &lt;) are decoded (unescapeEntities).

// xmlTagNameMax bounds how long a tag name is read.
const xmlTagNameMax = 128

func scanXMLTag(text string, sc scanCtx) []span {
	closers := map[string]*finder{}
	var out []span
	budget := workBudget(text) // for the bodies read without a closer
	for pos := 0; pos < len(text); {
		k := strings.IndexByte(text[pos:], '<')
		if k < 0 {
			break
		}
		open := pos + k
		j := open + 1
		for j < len(text) && j-open <= xmlTagNameMax && isNameByte(text[j]) {
			j++
		}
		name := text[open+1 : j]
		if j >= len(text) || text[j] != '>' || !sc.accepts(name) {
			pos = open + 1
			continue
		}
		closeTag := "</" + name + ">"
		f := closers[name]
		if f == nil {
			f = newFinder(text, closeTag)
			closers[name] = f
		}
		c := f.at(j + 1)
		body, end := "", 0
		switch {
		case c >= 0:
			body, end = text[j+1:c], c+len(closeTag)
		default:
			// The closer with its '<' lost (/read_file>), or no closer at the end of the
			// reply: only argument tags may then stand between the name and the end.
			mangled := closers["/"+name]
			if mangled == nil {
				mangled = newFinder(text, "/"+name+">")
				closers["/"+name] = mangled
			}
			if m := mangled.at(j + 1); m >= 0 {
				body, end = text[j+1:m], m+len(name)+2
			} else {
				body, end = text[j+1:], len(text)
			}
			if budget -= len(body); budget < 0 {
				pos = j + 1
				continue
			}
			if _, ok := xmlTagArgs(body); !ok {
				pos = j + 1
				continue
			}
		}
		if args, ok := xmlTagArgs(body); ok {
			out = append(out, span{start: open, end: end, calls: []Call{{
				Name: name, Args: args, Raw: strings.TrimSpace(body), Format: FormatXMLTag,
			}}})
			pos = end
			continue
		}
		if (bareArg(body) || bareLines(body)) && lineEdge(text, open, end) {
			// One bare value: which argument it is depends on the tool's schema, so argument
			// repair in tools/ places it (Args nil, Raw the value).
			out = append(out, span{start: open, end: end, calls: []Call{{
				Name: name, Raw: strings.TrimSpace(body), Format: FormatXMLTag,
			}}})
			pos = end
			continue
		}
		pos = j + 1
	}
	return out
}

// bareArg reports whether a tag body is one bare value: one non-empty line, no tags.
func bareArg(body string) bool {
	t := strings.TrimSpace(body)
	return t != "" && !strings.ContainsAny(t, "<>\n")
}

// bareLinesMax bounds how many bare lines a tag body may hold.
const bareLinesMax = 8

// bareLines reports whether a tag body is a few bare values, one a line, no tags or objects:
// the tool's arguments in its definition's order (<str_replace_editor> view / a.go, one a
// line), which argument repair in tools/ places by the tool's schema.
func bareLines(body string) bool {
	t := strings.TrimSpace(body)
	n := strings.Count(t, "\n") + 1
	return t != "" && n <= bareLinesMax && !strings.ContainsAny(t, "<>{}")
}

// xmlTagArgs reads a body made only of complete argument tags, unwrapping a lone <args> or
// <file> wrapper; ok is false for any other body.
func xmlTagArgs(body string) (json.RawMessage, bool) {
	for depth := 0; depth < 3; depth++ {
		pairs, ok := onlyChildTags(body)
		if !ok {
			return nil, false
		}
		if paths, ok := filePaths(pairs); ok {
			return objectOf([]kv{{"paths", paths}}), true
		}
		if len(pairs) != 1 || pairs[0].key != "args" && pairs[0].key != "file" {
			for i := range pairs {
				pairs[i].value = unescapeEntities(pairs[i].value)
			}
			return objectOf(pairs), true
		}
		var inner string
		if json.Unmarshal(pairs[0].value, &inner) != nil {
			return objectOf(pairs), true
		}
		body = inner
	}
	return nil, false
}

// onlyChildTags reads body as complete child tags with nothing but white space between them.
func onlyChildTags(body string) ([]kv, bool) {
	pairs, complete := childTags(body)
	if !complete || len(pairs) == 0 {
		return nil, false
	}
	rest := body
	for _, p := range pairs {
		open := "<" + p.key + ">"
		i := strings.Index(rest, open)
		if i < 0 || strings.TrimSpace(rest[:i]) != "" {
			return nil, false
		}
		_, after, _ := strings.Cut(rest[i+len(open):], "</"+p.key+">")
		rest = after
	}
	return pairs, strings.TrimSpace(rest) == ""
}

// xmlEntity matches the entities an XML writer escapes with.
var xmlEntity = lazyre.New(`&(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});`)

// unescapeEntities decodes the XML entities in a tag value written as escaped XML text
// ("cd a &amp;&amp; make", "if a &lt; b"), the way models escape values in Cline's and Roo's
// tool-use format. A value holding a raw '<' or '>' is not escaped text (an HTML file's
// content keeps its &amp;), so it is left as written.
func unescapeEntities(value json.RawMessage) json.RawMessage {
	var s string
	if json.Unmarshal(value, &s) != nil || !xmlEntity.MatchString(s) || strings.ContainsAny(s, "<>") {
		return value
	}
	return quoteJSON(html.UnescapeString(s))
}

// filePaths reads Roo's multi-file read, several <file><path>…</path></file> children, as one
// paths list (tools' Split makes it one read per file, in order); ok only when every child is
// a <file> holding just its <path>.
func filePaths(pairs []kv) (json.RawMessage, bool) {
	if len(pairs) < 2 {
		return nil, false
	}
	paths := make([]string, 0, len(pairs))
	for _, p := range pairs {
		var body string
		if p.key != "file" || json.Unmarshal(p.value, &body) != nil {
			return nil, false
		}
		inner, ok := onlyChildTags(body)
		if !ok || len(inner) != 1 || inner[0].key != "path" {
			return nil, false
		}
		var path string
		if json.Unmarshal(inner[0].value, &path) != nil || strings.TrimSpace(path) == "" {
			return nil, false
		}
		paths = append(paths, strings.TrimSpace(path))
	}
	b, err := json.Marshal(paths)
	return b, err == nil
}
