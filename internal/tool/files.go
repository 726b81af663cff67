package tool

import "context"

// File is a file a call gives a page (upload_file): the bytes the outside client's skiffd read
// from the computer it runs on, under the path the client named.
type File struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Mime string `json:"mime"`
	Data []byte `json:"data"`
}

type filesKey struct{}

// WithFiles is ctx carrying the files a call was sent with. They travel beside the call's
// arguments, never in them: a call's arguments are stored (its card, the audit log, a
// workflow) and the files' bytes must not be.
func WithFiles(ctx context.Context, files []File) context.Context {
	if len(files) == 0 {
		return ctx
	}
	return context.WithValue(ctx, filesKey{}, files)
}
