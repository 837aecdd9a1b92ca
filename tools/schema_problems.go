package tools

import (
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// problemsOf says what is wrong with args under root, one line per problem, in the words
// the harness has always shown: "missing required property 'path'", "unknown property 'x'",
// "count: got string, want integer", "offset: minimum: got 0, want 1".
func problemsOf(root *jsonschema.Schema, args any) []string {
	w := problemWalk{root: root}
	return w.problems(root, args, "")
}

// problemWalk walks a schema beside a value; root is where local $refs point.
type problemWalk struct {
	root  *jsonschema.Schema
	depth int // of $refs followed, so a schema that refers to itself ends
}

// maxRefDepth bounds $ref chains: a $ref back to the same schema at the same value would
// otherwise never end.
const maxRefDepth = 64

// problems lists what is wrong with v under s; field is the dotted path of v ("" for the
// arguments object itself).
func (w *problemWalk) problems(s *jsonschema.Schema, v any, field string) []string {
	if s == nil {
		return nil
	}
	at := func(msg string) string {
		if field == "" {
			return "arguments: " + msg
		}
		return field + ": " + msg
	}
	if isFalseSchema(s) {
		return []string{at("false schema")}
	}
	got := jsonTypeOf(v)
	if want := declaredTypes(s); len(want) > 0 && !typeMatches(got, v, want) {
		return []string{at("got " + got + ", want " + strings.Join(want, " or "))}
	}
	var out []string
	if ref := w.refTarget(s.Ref); ref != nil && w.depth < maxRefDepth {
		w.depth++
		out = append(out, w.problems(ref, v, field)...)
		w.depth--
	}
	if s.Const != nil && !jsonEqual(v, *s.Const) {
		out = append(out, at("value must be "+display(*s.Const)))
	}
	if len(s.Enum) > 0 && !enumHas(s.Enum, v) {
		out = append(out, at(enumWant(s.Enum)))
	}
	switch x := v.(type) {
	case string:
		out = append(out, stringProblems(s, x, at)...)
	case map[string]any:
		out = append(out, w.objectProblems(s, x, field, at)...)
	case []any:
		out = append(out, w.arrayProblems(s, x, field, at)...)
	default:
		if n, ok := ratOf(v); ok {
			out = append(out, numberProblems(s, n, at)...)
		}
	}
	return append(out, w.combinedProblems(s, v, field, at)...)
}

// refTarget is the schema a local $ref names ("#", "#/$defs/x", "#/definitions/x"); nil for
// none or any other reference, which the library's own verdict then covers.
func (w *problemWalk) refTarget(ref string) *jsonschema.Schema {
	switch {
	case ref == "":
		return nil
	case ref == "#":
		return w.root
	}
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		return w.root.Defs[name]
	}
	if name, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
		return w.root.Definitions[name]
	}
	return nil
}

func isFalseSchema(s *jsonschema.Schema) bool {
	if s.Not == nil {
		return false
	}
	return reflect.DeepEqual(*s.Not, jsonschema.Schema{})
}

func declaredTypes(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func typeMatches(got string, v any, want []string) bool {
	for _, w := range want {
		if w == got {
			return true
		}
		if w == "integer" && got == "number" {
			if n, ok := ratOf(v); ok && n.IsInt() {
				return true
			}
		}
	}
	return false
}

func numberProblems(s *jsonschema.Schema, n *big.Rat, at func(string) string) []string {
	var out []string
	got, _ := n.Float64()
	bound := func(limit *float64, failed func(cmp int) bool, name string) {
		if limit == nil {
			return
		}
		if failed(n.Cmp(new(big.Rat).SetFloat64(*limit))) {
			out = append(out, at(fmt.Sprintf("%s: got %v, want %v", name, got, *limit)))
		}
	}
	bound(s.Minimum, func(c int) bool { return c < 0 }, "minimum")
	bound(s.Maximum, func(c int) bool { return c > 0 }, "maximum")
	bound(s.ExclusiveMinimum, func(c int) bool { return c <= 0 }, "exclusiveMinimum")
	bound(s.ExclusiveMaximum, func(c int) bool { return c >= 0 }, "exclusiveMaximum")
	if s.MultipleOf != nil && *s.MultipleOf != 0 {
		if !new(big.Rat).Quo(n, new(big.Rat).SetFloat64(*s.MultipleOf)).IsInt() {
			out = append(out, at(fmt.Sprintf("multipleOf: got %v, want %v", got, *s.MultipleOf)))
		}
	}
	return out
}

func stringProblems(s *jsonschema.Schema, str string, at func(string) string) []string {
	var out []string
	length := utf8.RuneCountInString(str)
	if s.MinLength != nil && length < *s.MinLength {
		out = append(out, at(fmt.Sprintf("minLength: got %d, want %d", length, *s.MinLength)))
	}
	if s.MaxLength != nil && length > *s.MaxLength {
		out = append(out, at(fmt.Sprintf("maxLength: got %d, want %d", length, *s.MaxLength)))
	}
	if s.Pattern != "" {
		// Compiled again here, only once a call has failed: the library compiled it at
		// registration, so it is known to be valid.
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(str) {
			out = append(out, at(quote(str)+" does not match pattern "+quote(s.Pattern)))
		}
	}
	return out
}

func (w *problemWalk) objectProblems(s *jsonschema.Schema, obj map[string]any, field string, at func(string) string) []string {
	var out []string
	if s.MinProperties != nil && len(obj) < *s.MinProperties {
		out = append(out, at(fmt.Sprintf("minProperties: got %d, want %d", len(obj), *s.MinProperties)))
	}
	if s.MaxProperties != nil && len(obj) > *s.MaxProperties {
		out = append(out, at(fmt.Sprintf("maxProperties: got %d, want %d", len(obj), *s.MaxProperties)))
	}
	if missing := missingOf(obj, s.Required, field); len(missing) == 1 {
		out = append(out, "missing required property "+missing[0])
	} else if len(missing) > 1 {
		out = append(out, "missing required properties "+strings.Join(missing, ", "))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var unknown []string
	for _, k := range keys {
		matched := false
		if sub, ok := s.Properties[k]; ok {
			matched = true
			out = append(out, w.problems(sub, obj[k], prefixed(field, k))...)
		}
		for pattern, sub := range s.PatternProperties {
			if re, err := regexp.Compile(pattern); err == nil && re.MatchString(k) {
				matched = true
				out = append(out, w.problems(sub, obj[k], prefixed(field, k))...)
			}
		}
		switch {
		case matched || s.AdditionalProperties == nil:
		case isFalseSchema(s.AdditionalProperties):
			unknown = append(unknown, "'"+prefixed(field, k)+"'")
		default:
			out = append(out, w.problems(s.AdditionalProperties, obj[k], prefixed(field, k))...)
		}
	}
	if len(unknown) > 0 {
		out = append(out, "unknown property "+strings.Join(unknown, ", "))
	}
	for prop, needs := range s.DependentRequired {
		if _, ok := obj[prop]; ok {
			if missing := missingOf(obj, needs, field); len(missing) > 0 {
				out = append(out, at("properties "+strings.Join(missing, ", ")+" required, if "+quote(prop)+" exists"))
			}
		}
	}
	return out
}

// missingOf lists the names in required that obj lacks, quoted with their path.
func missingOf(obj map[string]any, required []string, field string) []string {
	var missing []string
	for _, r := range required {
		if _, ok := obj[r]; !ok {
			missing = append(missing, "'"+prefixed(field, r)+"'")
		}
	}
	return missing
}

func (w *problemWalk) arrayProblems(s *jsonschema.Schema, arr []any, field string, at func(string) string) []string {
	var out []string
	if s.MinItems != nil && len(arr) < *s.MinItems {
		out = append(out, at(fmt.Sprintf("minItems: got %d, want %d", len(arr), *s.MinItems)))
	}
	if s.MaxItems != nil && len(arr) > *s.MaxItems {
		out = append(out, at(fmt.Sprintf("maxItems: got %d, want %d", len(arr), *s.MaxItems)))
	}
	if s.UniqueItems {
	dup:
		for i := range arr {
			for j := i + 1; j < len(arr); j++ {
				if jsonEqual(arr[i], arr[j]) {
					out = append(out, at(fmt.Sprintf("items at %d and %d are equal", i, j)))
					break dup
				}
			}
		}
	}
	prefix := append(s.PrefixItems, s.ItemsArray...)
	for i, item := range arr {
		sub := s.Items
		if i < len(prefix) {
			sub = prefix[i]
		} else if s.ItemsArray != nil {
			sub = s.AdditionalItems
		}
		out = append(out, w.problems(sub, item, prefixed(field, strconv.Itoa(i)))...)
	}
	return out
}

// combinedProblems words allOf, anyOf, oneOf, not and if/then/else: a failed anyOf or
// oneOf lists what each alternative found wrong.
func (w *problemWalk) combinedProblems(s *jsonschema.Schema, v any, field string, at func(string) string) []string {
	var out []string
	for _, sub := range s.AllOf {
		out = append(out, w.problems(sub, v, field)...)
	}
	if len(s.AnyOf) > 0 {
		var all []string
		for _, sub := range s.AnyOf {
			p := w.problems(sub, v, field)
			if len(p) == 0 {
				all = nil
				break
			}
			all = append(all, p...)
		}
		out = append(out, all...)
	}
	if len(s.OneOf) > 0 {
		var all []string
		var matched []int
		for i, sub := range s.OneOf {
			p := w.problems(sub, v, field)
			if len(p) == 0 {
				matched = append(matched, i)
			}
			all = append(all, p...)
		}
		switch {
		case len(matched) == 0:
			out = append(out, all...)
		case len(matched) > 1:
			out = append(out, at(fmt.Sprintf("'oneOf' failed, subschemas %d, %d matched", matched[0], matched[1])))
		}
	}
	if s.Not != nil && !isFalseSchema(s) && len(w.problems(s.Not, v, field)) == 0 {
		out = append(out, at("'not' failed"))
	}
	if s.If != nil {
		if len(w.problems(s.If, v, field)) == 0 {
			out = append(out, w.problems(s.Then, v, field)...)
		} else {
			out = append(out, w.problems(s.Else, v, field)...)
		}
	}
	return out
}

func enumHas(enum []any, v any) bool {
	for _, e := range enum {
		if jsonEqual(e, v) {
			return true
		}
	}
	return false
}

func enumWant(enum []any) string {
	want := make([]string, len(enum))
	for i, e := range enum {
		switch e.(type) {
		case []any, map[string]any:
			return "'enum' failed"
		}
		want[i] = display(e)
	}
	if len(want) == 1 {
		return "value must be " + want[0]
	}
	return "value must be one of " + strings.Join(want, ", ")
}

// display shows a schema value in a message: strings quoted, containers as "value".
func display(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case []any, map[string]any:
		return "value"
	}
	return fmt.Sprint(v)
}

func quote(s string) string {
	s = strconv.Quote(s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}
