-- tests/test_harden.c: a scenario that tries every path helper on files
-- outside its folder (tests/data/outside/) and on files that do not exist.
-- The messages must be the same for both and quote nothing of the files.
local f = fusync
local msgs = {}
for _, c in ipairs{
  {f.scenario, "../outside/.env"}, {f.scenario, "../outside/no-such.env"},
  {f.hf_config, "../outside/config.json"}, {f.hf_config, "../outside/no-such.json"},
  {f.dist.from_file, "../outside/lengths.txt"}, {f.dist.from_file, "../outside/no-such.txt"},
  {f.scenario, "sub/../../outside/.env"}, {f.scenario, "/etc/passwd"},
} do
  local ok, e = pcall(c[1], c[2])
  local m = ok and "LOADED" or tostring(e)
  m = m:gsub("^.-(fusync%.)", "%1"):gsub("%.%./outside/[%w.-]+", "P")
  msgs[#msgs + 1] = m
end
local same = msgs[1] == msgs[2] and msgs[3] == msgs[4] and msgs[5] == msgs[6]
  and not (msgs[7] .. msgs[8]):find("LOADED")
if same then error("SAME " .. msgs[1] .. "|" .. msgs[3] .. "|" .. msgs[5], 0) end
error("DIFFER " .. table.concat(msgs, "|"), 0)
