module rdmastorage.local/rso-node

go 1.24
