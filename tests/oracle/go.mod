module embers.invalid/oracle

go 1.19
