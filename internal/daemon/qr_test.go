//go:build !js

package daemon

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
	"github.com/stretchr/testify/require"
)

// scan reads a QR code drawn by QR back into its text, the way a phone's camera does: it paints
// the characters as pixels (dark where the drawing is dark) and decodes them with ZXing.
func scan(t *testing.T, drawn string, colors bool) string {
	t.Helper()
	drawn = strings.NewReplacer("\x1b[30;47m", "", "\x1b[0m", "").Replace(drawn)
	lines := strings.Split(strings.TrimSuffix(drawn, "\n"), "\n")
	const scale, margin = 4, 16
	w := len([]rune(lines[0]))
	img := image.NewGray(image.Rect(0, 0, w*scale+2*margin, 2*len(lines)*scale+2*margin))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	paint := func(x, y int, on bool) {
		if on != colors || y >= w { // without colors the characters are the light modules; the drawing is w×w
			return
		}
		for dy := range scale {
			for dx := range scale {
				img.SetGray(margin+x*scale+dx, margin+y*scale+dy, color.Gray{})
			}
		}
	}
	for row, line := range lines {
		for x, r := range []rune(line) {
			top := r == '█' || r == '▀'
			bottom := r == '█' || r == '▄'
			paint(x, 2*row, top)
			paint(x, 2*row+1, bottom)
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	require.NoError(t, err)
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	require.NoError(t, err, "the QR code does not scan:\n%s", drawn)
	return res.GetText()
}

func TestQRScansBackToItsText(t *testing.T) {
	link := "https://192.168.1.23:8766/app/#code=" + NewToken("")
	for _, colors := range []bool{true, false} {
		drawn, err := QR(link, colors)
		require.NoError(t, err)
		require.Equal(t, link, scan(t, drawn, colors), "colors=%v", colors)
	}
}
