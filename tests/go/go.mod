module embers.invalid/fixtures

go 1.19
