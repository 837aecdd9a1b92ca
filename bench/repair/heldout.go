package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The held-out set (issue 20): real malformed calls collected by helpers who do not write the
// parsers, from sources the development corpus (bench/repair/corpus) never used. It is frozen by
// the hash of each file in SHA256SUMS (the output of `sha256sum *.json` in that directory) so a
// figure printed on it is a figure on the set as collected; the replay prints only its
// aggregates (see bench/repair/heldout/README.md).

// sumsFile names the hash list of the held-out directory.
const sumsFile = "SHA256SUMS"

// loadHeldout reads the held-out set of dir after checking every *.json file against dir's
// SHA256SUMS. An absent directory, or one with no case files yet, is an empty set. A case file
// missing from the list, a listed file that is absent, or a hash that differs is an error
// naming the file. Errors about a case name its file and position, never its contents.
func loadHeldout(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sums, err := readSums(filepath.Join(dir, sumsFile))
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(files) == 0:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s has %d case files but no %s: freeze the set with (cd %s && sha256sum *.json > %s)", dir, len(files), sumsFile, dir, sumsFile)
	case err != nil:
		return nil, err
	}
	if err := checkSums(dir, files, sums); err != nil {
		return nil, err
	}
	return readCaseFiles(files, true)
}

// readSums parses a `sha256sum` listing: "<64 hex digits>  <name>" per line (a '*' before the
// name marks binary mode and is accepted).
func readSums(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		sum, name, ok := strings.Cut(line, " ")
		name = strings.TrimPrefix(strings.TrimLeft(name, " "), "*")
		if _, herr := hex.DecodeString(sum); !ok || herr != nil || len(sum) != 64 || name == "" {
			return nil, fmt.Errorf("%s line %d is not `<sha256>  <file>` (regenerate it with sha256sum *.json > %s)", path, n, sumsFile)
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("%s lists %s twice", path, name)
		}
		sums[name] = strings.ToLower(sum)
	}
	return sums, sc.Err()
}

// checkSums holds every case file of dir to its listed hash, and every listed file to being
// present, so no file joins, leaves or changes the set without the list saying so.
func checkSums(dir string, files []string, sums map[string]string) error {
	present := map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		present[name] = true
		want, ok := sums[name]
		if !ok {
			return fmt.Errorf("held-out file %s is not in %s: a new file is frozen by adding its line (sha256sum %s >> %s)", f, sumsFile, name, sumsFile)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		got := sha256.Sum256(data)
		if hex.EncodeToString(got[:]) != want {
			return fmt.Errorf("held-out file %s does not match its hash in %s: the frozen set was changed", f, filepath.Join(dir, sumsFile))
		}
	}
	listed := make([]string, 0, len(sums))
	for name := range sums {
		listed = append(listed, name)
	}
	sort.Strings(listed)
	for _, name := range listed {
		if strings.HasSuffix(name, ".json") && !present[name] {
			return fmt.Errorf("held-out file %s is listed in %s but absent", filepath.Join(dir, name), sumsFile)
		}
	}
	return nil
}
