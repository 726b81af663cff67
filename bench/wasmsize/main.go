// Command wasmsize says where the bytes of a Go wasm binary go: the size of each function's
// code, summed by package, from the binary's code and name sections (build it without -s -w
// so the names are there). It guides what to cut from core.wasm; `make wasmsize` runs it.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func uleb(r *bytes.Reader) (uint64, error) {
	var x uint64
	var s uint
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		x |= uint64(b&0x7f) << s
		if b < 0x80 {
			return x, nil
		}
		s += 7
	}
}

func main() {
	top := flag.Int("top", 40, "how many packages to list")
	depth := flag.Int("depth", 0, "cut package paths to this many elements (0: whole)")
	funcs := flag.String("funcs", "", "list the largest functions whose name contains this instead")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-depth N] file.wasm")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sizes, names, imports, err := parse(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *funcs != "" {
		type fn struct {
			name string
			size int
		}
		var fs []fn
		for i, n := range sizes {
			if name := names[imports+i]; strings.Contains(name, *funcs) {
				fs = append(fs, fn{name, n})
			}
		}
		sort.Slice(fs, func(i, j int) bool { return fs[i].size > fs[j].size })
		for i, f := range fs {
			if i >= *top {
				break
			}
			fmt.Printf("%9d  %s\n", f.size, f.name)
		}
		return
	}
	byPkg := map[string]int{}
	total := 0
	for i, n := range sizes {
		name := names[imports+i]
		byPkg[pkgOf(name, *depth)] += n
		total += n
	}
	type kv struct {
		k string
		v int
	}
	var list []kv
	for k, v := range byPkg {
		list = append(list, kv{k, v})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].v > list[j].v })
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "file %d bytes, code %d bytes in %d functions\n", len(data), total, len(sizes))
	for i, e := range list {
		if i >= *top {
			break
		}
		fmt.Fprintf(w, "%9d %5.1f%%  %s\n", e.v, 100*float64(e.v)/float64(total), e.k)
	}
}

// pkgOf is the package of a function's name as Go's wasm linker writes it, with "_" for "/"
// and "-" in the package path: "encoding_json.(*decodeState).object" is encoding_json,
// "github.com_skiff_ai_skiff_internal_tool.init" is github.com_skiff_ai_skiff_internal_tool.
func pkgOf(name string, depth int) string {
	if name == "" {
		return "(unnamed)"
	}
	pkg := name
	rest := strings.TrimPrefix(name, "github.com") // the one dot a module path keeps
	if dot := strings.Index(rest, "."); dot >= 0 {
		pkg = name[:len(name)-len(rest)+dot]
	}
	if depth > 0 {
		parts := strings.Split(pkg, "_")
		if len(parts) > depth {
			pkg = strings.Join(parts[:depth], "_")
		}
	}
	return pkg
}

func parse(data []byte) (sizes []int, names map[int]string, imports int, err error) {
	if len(data) < 8 || string(data[:4]) != "\x00asm" {
		return nil, nil, 0, errors.New("not a wasm file")
	}
	r := bytes.NewReader(data[8:])
	names = map[int]string{}
	for r.Len() > 0 {
		id, err := r.ReadByte()
		if err != nil {
			return nil, nil, 0, err
		}
		n, err := uleb(r)
		if err != nil {
			return nil, nil, 0, err
		}
		sec := make([]byte, n)
		if _, err := io.ReadFull(r, sec); err != nil {
			return nil, nil, 0, err
		}
		s := bytes.NewReader(sec)
		switch id {
		case 2: // imports: functions among them take the first indices
			count, _ := uleb(s)
			for i := uint64(0); i < count; i++ {
				for j := 0; j < 2; j++ {
					l, _ := uleb(s)
					s.Seek(int64(l), io.SeekCurrent)
				}
				kind, _ := s.ReadByte()
				switch kind {
				case 0:
					uleb(s)
					imports++
				case 1:
					s.ReadByte()
					limits(s)
				case 2:
					limits(s)
				case 3:
					s.ReadByte()
					s.ReadByte()
				}
			}
		case 10: // code
			count, _ := uleb(s)
			for i := uint64(0); i < count; i++ {
				l, _ := uleb(s)
				sizes = append(sizes, int(l))
				s.Seek(int64(l), io.SeekCurrent)
			}
		case 0: // custom: the name section
			l, _ := uleb(s)
			nm := make([]byte, l)
			io.ReadFull(s, nm)
			if string(nm) != "name" {
				continue
			}
			for s.Len() > 0 {
				sub, _ := s.ReadByte()
				sl, _ := uleb(s)
				if sub != 1 {
					s.Seek(int64(sl), io.SeekCurrent)
					continue
				}
				count, _ := uleb(s)
				for i := uint64(0); i < count; i++ {
					idx, _ := uleb(s)
					ln, _ := uleb(s)
					b := make([]byte, ln)
					io.ReadFull(s, b)
					names[int(idx)] = string(b)
				}
			}
		}
	}
	return sizes, names, imports, nil
}

func limits(s *bytes.Reader) {
	flags, _ := s.ReadByte()
	uleb(s)
	if flags&1 != 0 {
		uleb(s)
	}
}
