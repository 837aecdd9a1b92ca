package store

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

const (
	sessionPrefix  = "s/"
	artifactPrefix = "a/"
	metaName       = "meta"
	logName        = "log/"
)

// writtenMarkerKey holds when a Store last synced or closed after writing (store/compaction.go).
// It sorts after every session key, so the tables of successive runs overlap only at their top.
var writtenMarkerKey = []byte("st/written")

// checkSessionID rejects IDs that would break the key layout: a slash would let one session's
// keys land inside another's prefix.
func checkSessionID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("empty session id")
	case strings.ContainsAny(id, "/\x00"):
		return fmt.Errorf("session id %q contains '/' or NUL", id)
	}
	return nil
}

// sessionKeyPrefix is "s/<session>/", the prefix of every key of one session.
func sessionKeyPrefix(session string) []byte { return []byte(sessionPrefix + session + "/") }

// nextSessionKey is the smallest key after every key of session ('0' follows '/').
func nextSessionKey(session string) []byte { return []byte(sessionPrefix + session + "0") }

func metaKey(session string) []byte { return []byte(sessionPrefix + session + "/" + metaName) }

func logPrefix(session string) []byte { return []byte(sessionPrefix + session + "/" + logName) }

// logKey is the key of entry seq: 16 hex digits, so byte order is numeric order.
func logKey(session string, seq uint64) []byte {
	const digits = "0123456789abcdef"
	k := append(logPrefix(session), "0000000000000000"...) // %016x, without fmt: three per turn
	for i := len(k) - 1; seq > 0; i-- {
		k[i] = digits[seq&0xf]
		seq >>= 4
	}
	return k
}

// seqOfLogKey parses the seq back out of a log key.
func seqOfLogKey(key []byte) (uint64, error) {
	i := strings.LastIndexByte(string(key), '/')
	digits := key[i+1:]
	if len(digits) != 16 {
		return 0, fmt.Errorf("malformed log key %q", key)
	}
	var b [8]byte
	if _, err := hex.Decode(b[:], digits); err != nil {
		return 0, fmt.Errorf("malformed log key %q: %w", key, err)
	}
	return binary.BigEndian.Uint64(b[:]), nil
}

// sessionOfKey returns <session> from a key "s/<session>/…".
func sessionOfKey(key []byte) string {
	rest := string(key[len(sessionPrefix):])
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[:i]
	}
	return rest
}

// valueKey is the key of a named per-session record.
func valueKey(session, name string) []byte { return []byte(sessionPrefix + session + "/" + name) }

func artifactKey(hexSum string) []byte { return []byte(artifactPrefix + hexSum) }
