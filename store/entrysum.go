package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
)

// A log entry is stored as one format byte, the CRC-32C of the JSON that follows (4 bytes, big
// endian), then the entry's JSON. The checksum makes each entry verifiable on its own: a value
// that was changed on disk is reported as damaged and loses that entry, not the session.
// Entries written before checksums existed are plain JSON (they start with '{') and load
// unverified.
const entryFormatCRC32C byte = 0x01

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errEntryChecksum means a stored entry's bytes do not match its checksum.
var errEntryChecksum = errors.New("checksum mismatch")

// DamagedEntryEvent is the Event of the placeholder LogFrom returns for an entry whose stored
// value could not be read or failed its checksum. Its Text says what went wrong; healing treats
// the lost entry like any missing one (a call without a result is marked interrupted).
const DamagedEntryEvent = "store.entry_damaged"

// encodeEntry returns the stored form of e.
func encodeEntry(e *Entry) ([]byte, error) {
	out, err := marshalEntry(make([]byte, 5, 5+len(e.Text)+len(e.Reasoning)+len(e.Data)+256), e)
	if err != nil {
		return nil, err
	}
	out[0] = entryFormatCRC32C
	binary.BigEndian.PutUint32(out[1:5], crc32.Checksum(out[5:], castagnoli))
	return out, nil
}

// decodeEntry verifies and decodes a stored entry into e.
func decodeEntry(v []byte, e *Entry) error {
	switch {
	case len(v) > 0 && v[0] == '{':
		return json.Unmarshal(v, e)
	case len(v) >= 5 && v[0] == entryFormatCRC32C:
		body := v[5:]
		if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(v[1:5]) {
			return errEntryChecksum
		}
		return json.Unmarshal(body, e)
	}
	return fmt.Errorf("unknown entry format (%d bytes)", len(v))
}

// damagedEntry stands in for entry seq, which could not be read.
func damagedEntry(seq uint64, cause error) *Entry {
	return &Entry{
		Seq:   seq,
		Kind:  KindSystem,
		Event: DamagedEntryEvent,
		Text:  fmt.Sprintf("entry %d of this session was damaged on disk and is lost (%v)", seq, cause),
	}
}
