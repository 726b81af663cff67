package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/skiff-ai/skiff/internal/link"
)

// UploadTool is the tool whose files skiffd reads for the extension, which cannot read the
// computer's files itself.
const UploadTool = "upload_file"

// What one call may send: a file, and all of them together (the link carries at most 64 MB,
// and files travel as base64).
const (
	MaxUploadFile  = 25 << 20
	MaxUploadTotal = 32 << 20
)

// Uploads reads the files an upload_file call names, on this computer: each by its absolute
// path (or one under ~/), a regular file, within the sizes above. The error is a sentence for
// the client's model.
func Uploads(args json.RawMessage) ([]link.File, error) {
	var in struct {
		Files []string `json:"files"`
	}
	if json.Unmarshal(args, &in) != nil || len(in.Files) == 0 {
		return nil, nil // the tool says what is missing
	}
	var out []link.File
	total := 0
	for _, p := range in.Files {
		full := p
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home, err := os.UserHomeDir(); err == nil {
				full = filepath.Join(home, rest)
			}
		}
		if !filepath.IsAbs(full) {
			return nil, fmt.Errorf("%q is not an absolute path: give each file's full path on the computer skiffd runs on.", p)
		}
		st, err := os.Stat(full)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("There is no file %s on the computer skiffd runs on.", full)
		case err != nil:
			return nil, fmt.Errorf("skiffd cannot read %s (%v).", full, err)
		case st.IsDir():
			return nil, fmt.Errorf("%s is a folder: give the files in it one by one.", full)
		case !st.Mode().IsRegular():
			return nil, fmt.Errorf("%s is not a regular file.", full)
		case st.Size() > MaxUploadFile:
			return nil, fmt.Errorf("%s is %.1f MB: skiffd sends files of up to %d MB.", full, float64(st.Size())/(1<<20), MaxUploadFile>>20)
		}
		total += int(st.Size())
		if total > MaxUploadTotal {
			return nil, fmt.Errorf("The files come to more than %d MB together: send fewer at a time.", MaxUploadTotal>>20)
		}
		data, err := os.ReadFile(full)
		if err != nil {
			return nil, fmt.Errorf("skiffd cannot read %s (%v).", full, err)
		}
		out = append(out, link.File{Path: p, Name: filepath.Base(full), Mime: mimeOf(full, data), Data: data})
	}
	return out, nil
}

// mimeOf is a file's type by its extension, else by its first bytes.
func mimeOf(name string, data []byte) string {
	t := mime.TypeByExtension(filepath.Ext(name))
	if t == "" {
		t = http.DetectContentType(data)
	}
	t, _, _ = strings.Cut(t, ";")
	return strings.TrimSpace(t)
}
