package daemon

import "os"

func readFile(p string) ([]byte, error) { return os.ReadFile(p) }

func statMode(p string) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	return st.Mode().String(), nil
}
