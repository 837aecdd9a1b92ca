package lessons

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/troupe-dev/troupe/messages"
)

// BM25 parameters: the usual ones (Robertson and Zaragoza).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// stopWords are too common in tasks and errors to tell lessons apart.
var stopWords = map[string]bool{
	"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "to": true, "in": true, "on": true,
	"is": true, "it": true, "for": true, "with": true, "this": true, "that": true, "be": true, "as": true, "at": true,
	"by": true, "from": true, "was": true, "are": true, "not": true, "no": true, "after": true, "then": true,
	"failed": true, "worked": true, "passed": true, "edited": true, "please": true, "run": true, "exit": true,
	"code": true, "error": true, "file": true, "line": true,
}

// tokens splits text into lower-case terms: words of letters and digits, with identifiers also
// split at '_', '.', '-' and '/', so that `pkg/store.go` meets `store`.
func tokens(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		for _, p := range strings.FieldsFunc(w, func(r rune) bool { return r == '_' }) {
			if len(p) >= 2 && !stopWords[p] {
				out = append(out, stem(p))
			}
		}
	}
	return out
}

// stem folds the commonest English endings, so "checks" meets "check" and "failing" "fail".
func stem(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// document is the text a lesson is found by: its failure counts twice, since a new session
// meets the failure, not the fix.
func document(l *messages.Lesson) string {
	return l.Failed + " " + l.Failed + " " + l.Key + " " + l.Fixed + " " + strings.Join(l.Files, " ") + " " + l.Task
}

// Index is a BM25 index over a project's lessons. It is built once and read only.
type Index struct {
	lessons []messages.Lesson
	terms   []map[string]int
	lens    []int
	df      map[string]int
	avgLen  float64
}

// NewIndex indexes lessons.
func NewIndex(lessons []messages.Lesson) *Index {
	x := &Index{lessons: lessons, df: map[string]int{}}
	total := 0
	for i := range lessons {
		tf := map[string]int{}
		toks := tokens(document(&lessons[i]))
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			x.df[t]++
		}
		x.terms = append(x.terms, tf)
		x.lens = append(x.lens, len(toks))
		total += len(toks)
	}
	if len(lessons) > 0 {
		x.avgLen = float64(total) / float64(len(lessons))
	}
	return x
}

// Hit is one lesson found, with its score.
type Hit struct {
	Lesson messages.Lesson
	Score  float64
}

// Search returns up to k lessons relevant to query, best first: BM25 times the lesson's weight
// (Weight), keeping only hits that meet the query on need distinctive terms and score within
// relative of the best.
func (x *Index) Search(query string, k int, epoch int, need int) []Hit {
	q := map[string]bool{}
	for _, t := range tokens(query) {
		q[t] = true
	}
	n := float64(len(x.lessons))
	var hits []Hit
	need = min(max(need, 1), len(q))
	common := max(2, len(x.lessons)/5) // a term in more lessons than this tells none apart
	for i := range x.lessons {
		s, matched := 0.0, 0
		for t := range q {
			f := float64(x.terms[i][t])
			if f == 0 || x.df[t] > common {
				continue
			}
			matched++
			df := float64(x.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(x.lens[i])/x.avgLen))
		}
		if matched >= need {
			hits = append(hits, Hit{Lesson: x.lessons[i], Score: s * Weight(&x.lessons[i], epoch)})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })
	if len(hits) == 0 {
		return nil
	}
	best := hits[0].Score
	kept := hits[:0]
	for _, h := range hits {
		if len(kept) == k || h.Score < relative*best {
			break
		}
		kept = append(kept, h)
	}
	return kept
}

// relative is how close to the best hit another must score to come with it.
const relative = 0.4
