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

// Files finds a file a call names (upload_file's files), by the path or name it gave.
type Files func(ctx context.Context, name string) (File, bool)

// WithFiles is ctx carrying the files a call was sent with. They travel beside the call's
// arguments, never in them: a call's arguments are stored (its card, the audit log, a
// workflow) and the files' bytes must not be.
func WithFiles(ctx context.Context, files []File) context.Context {
	if len(files) == 0 {
		return ctx
	}
	return WithFileSource(ctx, func(_ context.Context, name string) (File, bool) {
		for _, f := range files {
			if f.Path == name {
				return f, true
			}
		}
		return File{}, false
	})
}

// WithFileSource is ctx whose calls find their files with find (the files the user attached
// to a chat, read from the store when a call names one).
func WithFileSource(ctx context.Context, find Files) context.Context {
	return context.WithValue(ctx, filesKey{}, find)
}
