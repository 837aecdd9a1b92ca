package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

// moduleSizes prints what each module adds to the binary: the bytes of its code and read-only
// data symbols (`go tool nm -size`) plus its share of the function table (.gopclntab, about a
// third of a Go binary, split by function count), largest first. Type metadata and closures
// are counted with the package they belong to; what cannot be attributed is listed as "other".
func moduleSizes(bin string, top int) error {
	out, err := exec.Command("go", "tool", "nm", "-size", bin).Output()
	if err != nil {
		return fmt.Errorf("go tool nm %s: %w", bin, err)
	}
	pclntab, err := sectionSize(bin, ".gopclntab")
	if err != nil {
		return err
	}
	type entry struct {
		mod   string
		size  int64 // code and read-only data
		funcs int
	}
	byMod := map[string]*entry{}
	totalFuncs := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.ContainsAny(f[2], "tTrR") {
			continue
		}
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		mod := moduleOf(strings.Join(f[3:], " "))
		e := byMod[mod]
		if e == nil {
			e = &entry{mod: mod}
			byMod[mod] = e
		}
		e.size += size
		if strings.ContainsAny(f[2], "tT") {
			e.funcs++
			totalFuncs++
		}
	}
	share := func(e *entry) float64 {
		return float64(e.size) + float64(pclntab)*float64(e.funcs)/float64(max(totalFuncs, 1))
	}
	var list []*entry
	for _, e := range byMod {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return share(list[i]) > share(list[j]) })
	for i, e := range list {
		if i == top {
			break
		}
		row("  binary: "+e.mod, fmt.Sprintf("%5.2f MiB (code+data %.2f, %d funcs)", share(e)/(1<<20), float64(e.size)/(1<<20), e.funcs))
	}
	return nil
}

// sectionSize is the size of the named ELF section of bin.
func sectionSize(bin, name string) (uint64, error) {
	f, err := elf.Open(bin)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", bin, err)
	}
	defer f.Close()
	if s := f.Section(name); s != nil {
		return s.Size, nil
	}
	return 0, nil
}

// moduleOf is the module (or standard-library package tree) a symbol belongs to, from its name:
// "github.com/a/b/c.(*T).M" → "github.com/a/b", "type:*net/http.Client" → "std net".
func moduleOf(sym string) string {
	for _, p := range []string{"type:.eq.", "type:", "go:itab.", "*", "("} {
		sym = strings.TrimPrefix(sym, p)
	}
	sym = strings.TrimLeft(sym, "*(")
	pkg := sym
	if generic := strings.IndexByte(pkg, '['); generic >= 0 {
		pkg = pkg[:generic]
	}
	last := strings.LastIndexByte(pkg, '/')
	if dot := strings.IndexByte(pkg[last+1:], '.'); dot >= 0 {
		pkg = pkg[:last+1+dot]
	}
	parts := strings.Split(pkg, "/")
	switch {
	case len(parts) >= 3 && (parts[0] == "github.com" || parts[0] == "golang.org" || parts[0] == "kernel.org"):
		return strings.Join(parts[:3], "/")
	case len(parts) >= 2 && strings.Contains(parts[0], "."):
		return strings.Join(parts[:2], "/")
	case strings.HasPrefix(pkg, "go:"):
		return "other"
	}
	return "std " + parts[0]
}
