package markdown

import "strings"

// link reads [label](destination "title") or, after !, an image. Reference links
// ([label][ref]) are not resolved: they stay text.
func (p *inlineParser) link() bool {
	s := p.src
	open := p.pos + 1
	kind := Link
	if s[p.pos] == '!' {
		open, kind = p.pos+2, Image
	}
	if p.lastClose == unknown {
		p.lastClose = strings.LastIndexByte(s, ']')
	}
	if open > p.lastClose {
		return false
	}
	close := closingBracket(s, open)
	if close < 0 || close+1 >= len(s) || s[close+1] != '(' {
		return false
	}
	dest, end, ok := linkTail(s, close+2)
	if !ok {
		return false
	}
	p.pos = end
	p.push(&Node{Kind: kind, Dest: dest, Children: parseInline(s[open:close])}, nil)
	return true
}

// maxLabel bounds the search for a link's closing bracket, so that text full of [ is read in
// linear time (CommonMark bounds a reference's label at 999 bytes too).
const maxLabel = 1000

// closingBracket finds the ] that closes the [ before i, skipping nested brackets, escapes and
// code spans; -1 if none within maxLabel bytes.
func closingBracket(s string, i int) int {
	depth := 0
	for end := min(len(s), i+maxLabel); i < end; i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			n := runLen(s, i, '`')
			if j := strings.Index(s[i+n:min(len(s), i+n+maxLabel)], s[i:i+n]); j >= 0 {
				i += n + j + n - 1
			} else {
				i += n - 1
			}
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// linkTail reads a link's destination and optional title from s[i:] up to the closing
// parenthesis; end is just past it.
func linkTail(s string, i int) (dest string, end int, ok bool) {
	i = skipSpace(s, i)
	if i < len(s) && s[i] == '<' {
		j := strings.IndexAny(s[i+1:], ">\n")
		if j < 0 || s[i+1+j] != '>' {
			return "", 0, false
		}
		dest, i = s[i+1:i+1+j], i+j+2
	} else {
		start, depth := i, 0
		for ; i < len(s) && s[i] > ' '; i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			} else if s[i] == '(' {
				depth++
			} else if s[i] == ')' {
				if depth == 0 {
					break
				}
				depth--
			}
		}
		dest = s[start:i]
	}
	if j := skipSpace(s, i); j > i && j < len(s) && strings.IndexByte(`"'(`, s[j]) >= 0 {
		closer := s[j]
		if closer == '(' {
			closer = ')'
		}
		k := strings.IndexByte(s[j+1:], closer)
		if k < 0 {
			return "", 0, false
		}
		i = j + 1 + k + 1
	}
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != ')' {
		return "", 0, false
	}
	return unescape(dest), i + 1, true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
		i++
	}
	return i
}

// unescape removes the backslashes before punctuation.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// autoLink reads <scheme:address> or <name@domain>.
func (p *inlineParser) autoLink() bool {
	s := p.src[p.pos+1:]
	end := strings.IndexAny(s, "<> \n")
	if end <= 0 || s[end] != '>' {
		return false
	}
	addr := s[:end]
	colon := strings.IndexByte(addr, ':')
	scheme := colon >= 2 && colon <= 32 && isLetter(addr[0]) &&
		strings.Trim(addr[:colon], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") == ""
	email := !scheme && strings.Count(addr, "@") == 1 && !strings.HasPrefix(addr, "@") && !strings.HasSuffix(addr, "@")
	if !scheme && !email {
		return false
	}
	dest := addr
	if email {
		dest = "mailto:" + addr
	}
	p.pos += end + 2
	p.push(&Node{Kind: AutoLink, Dest: dest, Literal: addr}, nil)
	return true
}

// rawHTML reads an inline tag (<b>, </b>, <br/>) or comment, kept as written.
func (p *inlineParser) rawHTML() bool {
	s := p.src[p.pos:]
	end := -1
	switch {
	case strings.HasPrefix(s, "<!--"):
		if j := strings.Index(s[4:], "-->"); j >= 0 {
			end = 4 + j + 3
		}
	case len(s) > 2 && (isLetter(s[1]) || (s[1] == '/' && isLetter(s[2]))):
		if j := strings.IndexAny(s[1:], "<>"); j >= 0 && s[1+j] == '>' {
			end = 1 + j + 1
		}
	}
	if end < 0 {
		return false
	}
	p.pos += end
	p.push(&Node{Kind: RawHTML, Literal: s[:end]}, nil)
	return true
}

// bareLink reads a URL written without brackets (GitHub's extended autolinks): http://,
// https://, ftp:// or www. at the start of a word, up to a space or <, without the
// punctuation that ends a sentence.
func (p *inlineParser) bareLink() bool {
	if p.pos > 0 && !strings.ContainsRune(" \t\n*_~(", rune(p.src[p.pos-1])) {
		return false
	}
	s := p.src[p.pos:]
	var prefix string
	for _, pre := range []string{"https://", "http://", "ftp://", "www."} {
		if strings.HasPrefix(s, pre) {
			prefix = pre
			break
		}
	}
	if prefix == "" {
		return false
	}
	end := strings.IndexAny(s, " \t\n<")
	if end < 0 {
		end = len(s)
	}
	for end > len(prefix) {
		c := s[end-1]
		if strings.IndexByte("?!.,:*_~'\"", c) >= 0 ||
			(c == ')' && strings.Count(s[:end], ")") > strings.Count(s[:end], "(")) {
			end--
			continue
		}
		break
	}
	host := s[len(prefix):end]
	if host == "" || !isAlnum(host[0]) || (prefix == "www." && !strings.Contains(host, ".")) {
		return false
	}
	dest := s[:end]
	if prefix == "www." {
		dest = "http://" + dest
	}
	p.pos += end
	p.push(&Node{Kind: AutoLink, Dest: dest, Literal: s[:end]}, nil)
	return true
}
