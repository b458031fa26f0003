-- a lesson whose steps table has a __len that is not an integer
local steps = setmetatable({}, { __len = function() return 1.5 end })
return { title = "len", scenario = "../examples/qwen7b_h100x16.lua", steps = steps }
