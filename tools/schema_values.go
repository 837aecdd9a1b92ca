package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// Decoded JSON values (map[string]any, []any, json.Number, string, bool, nil) as the schema
// checks see them. Arguments are decoded with UseNumber, so a number may be a json.Number.

// jsonTypeOf names v's JSON type as a schema's "type" does; every number is "number"
// (typeMatches decides whether it is also an integer).
func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	if _, ok := ratOf(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// ratOf is v's exact value when v is a number.
func ratOf(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case json.Number:
		if len(x) > maxExactNumber {
			return approxRat(x)
		}
		return new(big.Rat).SetString(x.String())
	case float64:
		r := new(big.Rat).SetFloat64(x) // nil for NaN and infinities
		return r, r != nil
	case int:
		return big.NewRat(int64(x), 1), true
	case int64:
		return big.NewRat(x, 1), true
	}
	return nil, false
}

// maxExactNumber bounds the digits read exactly: big.Rat's decimal parse grows with the square
// of the length, and no argument of ours needs more digits than this (a hostile megabyte of
// digits must not cost seconds).
const maxExactNumber = 400

// approxRat is a long number's value as the nearest float64, or the largest one, with its sign,
// when it is beyond float64: still a number, far outside any schema's range.
func approxRat(x json.Number) (*big.Rat, bool) {
	f, err := strconv.ParseFloat(x.String(), 64)
	if err != nil && !math.IsInf(f, 0) {
		return nil, false
	}
	if math.IsInf(f, 0) {
		f = math.Copysign(math.MaxFloat64, f)
	}
	return new(big.Rat).SetFloat64(f), true
}

// jsonEqual compares two decoded JSON values, numbers by value (1 equals 1.0).
func jsonEqual(a, b any) bool {
	if x, ok := ratOf(a); ok {
		y, ok := ratOf(b)
		return ok && x.Cmp(y) == 0
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// plainNumbers copies a decoded value with each json.Number turned into an int64 or a
// float64: the library reads a json.Number as a string.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainNumbers(e)
		}
		return out
	}
	return v
}
