package daemon

import (
	"strings"

	"rsc.io/qr"
)

// QR draws text as a QR code for a terminal, two modules to a character with half blocks and
// a quiet zone of two modules. With colors, it sets black on white itself (ANSI), so it scans
// on a light or a dark terminal alike; without, it draws the light modules as the characters,
// the way `qrencode -t UTF8` does, for the usual dark terminal.
func QR(text string, colors bool) (string, error) {
	c, err := qr.Encode(text, qr.M)
	if err != nil {
		return "", err
	}
	const quiet = 2
	dark := func(x, y int) bool {
		x, y = x-quiet, y-quiet
		return x >= 0 && y >= 0 && x < c.Size && y < c.Size && c.Black(x, y)
	}
	n := c.Size + 2*quiet
	var b strings.Builder
	for y := 0; y < n; y += 2 {
		if colors {
			b.WriteString("\x1b[30;47m")
		}
		for x := 0; x < n; x++ {
			top, bottom := dark(x, y), dark(x, y+1)
			if !colors { // the characters draw the light modules
				top, bottom = !top, !bottom && y+1 < n // the last row is alone when n is odd
			}
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		if colors {
			b.WriteString("\x1b[0m")
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
