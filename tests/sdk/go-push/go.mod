module embers.invalid/gopush

go 1.19
