// Package lazyre is a regular expression compiled on first use. A package-level
// regexp.MustCompile runs at every start of the binary, `troupe version` included, whether or
// not the expression is ever used; a counted repetition such as {1,64} compiles to that many
// copies. Compiled lazily, the package-level expressions of troupe's own packages cost the
// start nothing (bench/startup.sh prints package init, measured with GODEBUG=inittrace=1).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled the first time one of its methods is called. It is safe
// for concurrent use, as regexp.Regexp is.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// New returns an expression compiled from src on first use; an invalid src panics then, as
// regexp.MustCompile would at start (every expression is exercised by its package's tests).
func New(src string) *Regexp { return &Regexp{src: src} }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

func (r *Regexp) MatchString(s string) bool                  { return r.Re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                        { return r.Re().Match(b) }
func (r *Regexp) FindString(s string) string                 { return r.Re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int             { return r.Re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string       { return r.Re().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int     { return r.Re().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string     { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.Re().FindAllStringIndex(s, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(s, repl string) string { return r.Re().ReplaceAllString(s, repl) }
func (r *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return r.Re().ReplaceAllStringFunc(s, f)
}
func (r *Regexp) SubexpIndex(name string) int { return r.Re().SubexpIndex(name) }
func (r *Regexp) String() string              { return r.src }
func (r *Regexp) ReplaceAllLiteralString(s, repl string) string {
	return r.Re().ReplaceAllLiteralString(s, repl)
}
func (r *Regexp) Split(s string, n int) []string { return r.Re().Split(s, n) }
