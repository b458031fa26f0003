-- tests/test_harden.c: the same helpers on the same files once the test
-- allows tests/data/outside/ (as --data-dir does): an included file runs in
-- globals of its own, and no message quotes the files' text.
local msgs = {}
local ok, e = pcall(fusync.scenario, "../outside/.env")
msgs[1] = ok and "LOADED" or tostring(e)
msgs[2] = "global " .. tostring(DB_PASSWORD)
ok, e = pcall(fusync.hf_config, "../outside/config.json")
msgs[3] = ok and "LOADED" or tostring(e)
ok, e = pcall(fusync.dist.from_file, "../outside/lengths.txt")
msgs[4] = ok and "LOADED" or tostring(e)
for i = 1, 4 do msgs[i] = msgs[i]:gsub("^.-(fusync%.)", "%1") end
error(table.concat(msgs, "|"), 0)
