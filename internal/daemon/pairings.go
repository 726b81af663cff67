package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// pairing is a browser paired with the web client, as skiffd keeps it: the SHA-256 of its
// cookie (the file holds nothing a browser could present), until when it lasts, and whether it
// was made on the LAN (its cookie is good only there).
type pairing struct {
	Hash  string    `json:"hash"`
	Until time.Time `json:"until"`
	LAN   bool      `json:"lan,omitempty"`
}

// pairingsFile is where the pairings are kept, beside config.json: a restarted skiffd (a
// laptop that rebooted) still knows the browsers and phones the user paired.
const pairingsFile = "webclients.json"

// cookieHash is what a cookie is known by.
func cookieHash(cookie string) string {
	h := sha256.Sum256([]byte(cookie))
	return hex.EncodeToString(h[:])
}

// loadPairings reads the pairings kept in dir, without those that expired. A missing file is
// none; a damaged one is an error (the caller starts with none: the user pairs again).
func loadPairings(dir string, now time.Time) (map[string]pairing, error) {
	out := map[string]pairing{}
	b, err := os.ReadFile(filepath.Join(dir, pairingsFile))
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	var list []pairing
	if err := json.Unmarshal(b, &list); err != nil {
		return out, fmt.Errorf("%s is not valid JSON (%v)", filepath.Join(dir, pairingsFile), err)
	}
	for _, p := range list {
		if len(p.Hash) == sha256.Size*2 && now.Before(p.Until) {
			out[p.Hash] = p
		}
	}
	return out, nil
}

// savePairings writes the pairings that have not expired, readable by their owner only; with
// none, the file is removed.
func savePairings(dir string, all map[string]pairing, now time.Time) error {
	list := []pairing{}
	for _, p := range all {
		if now.Before(p.Until) {
			list = append(list, p)
		}
	}
	path := filepath.Join(dir, pairingsFile)
	if len(list) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(list, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ForgetPairings forgets every browser paired with the web client of the skiffd whose
// configuration is in dir, when that skiffd is not running (`skiffd unpair`); it says how many
// it forgot.
func ForgetPairings(dir string) (int, error) {
	all, err := loadPairings(dir, time.Now())
	if err != nil {
		all = map[string]pairing{}
	}
	if err := os.Remove(filepath.Join(dir, pairingsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	return len(all), nil
}
