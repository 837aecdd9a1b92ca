package lazyre

import (
	"sync"
	"testing"
)

func TestCompiledOnFirstUseOnce(t *testing.T) {
	r := New(`^a(\d+)$`)
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := r.FindStringSubmatch("a42"); len(m) != 2 || m[1] != "42" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		}()
	}
	wg.Wait()
	if first := r.Re(); first != r.Re() || r.MatchString("b") {
		t.Error("Re is not one compiled expression")
	}
}

func TestInvalidPanicsOnFirstUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic on first use")
		}
	}()
	r.MatchString("x")
}
