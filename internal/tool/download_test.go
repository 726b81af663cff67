package tool

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// What a result says of a download, in each state chrome.downloads reports.
func TestADownloadIsSaidAsItStands(t *testing.T) {
	for _, c := range []struct {
		d    Download
		says string
	}{
		{Download{Filename: "/home/ada/Downloads/invoice.pdf", State: "complete", Received: 48210},
			" It downloaded “invoice.pdf” (48.2 KB), saved as /home/ada/Downloads/invoice.pdf."},
		{Download{Filename: "/d/big.zip", State: "in_progress", Received: 12_000_000, Total: 300_000_000},
			" It is downloading “big.zip” (12.0 MB of 300.0 MB so far) to /d/big.zip; it goes on in the background."},
		{Download{Filename: "/d/stream.bin", State: "in_progress", Received: 512},
			" It is downloading “stream.bin” (512 bytes so far) to /d/stream.bin; it goes on in the background."},
		{Download{URL: "https://shop.example/files/receipt.pdf?v=2", State: "in_progress"},
			" It began a download of “receipt.pdf”; the browser is asking the user where to save it."},
		{Download{URL: "https://shop.example/files/receipt.pdf", State: "interrupted", Error: "SERVER_BAD_CONTENT"},
			" Its download of “receipt.pdf” failed: the server has no such file."},
		{Download{URL: "blob:https://shop.example/1c2d", State: "interrupted", Error: "SOMETHING_NEW"},
			" Its download of “a file” failed: something new."},
		{Download{Filename: "/d/setup.exe", State: "complete", Received: 2_500_000_000, Danger: "file"},
			" It downloaded “setup.exe” (2.5 GB), saved as /d/setup.exe. Chrome holds it as possibly harmful until the user chooses to keep it."},
	} {
		assert.Equal(t, c.says, c.d.says())
	}
}
