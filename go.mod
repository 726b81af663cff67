module github.com/skiff-ai/skiff

go 1.26.8

require (
	github.com/stretchr/testify v1.12.1
	github.com/tmaxmax/go-sse v0.11.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
