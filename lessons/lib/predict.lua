-- Predictions in demos: the student answers a question before the demo shows the truth.
--
--   predict(question, truth, explanation [, opts])
--
-- truth is a function; its value is the right answer. explanation is required: it is
-- printed after every answer, right or wrong, so a wrong guess always learns why.
-- opts.choices lists the accepted answers of a multiple-choice question, shown with the
-- question: a list, or "state" (a kobject's states) or "yes/no". A question whose answer
-- is a state, yes or no must list its choices.
--
-- Answers are forgiving: case, surrounding space, quotes and a final full stop do not
-- matter; number words count ("two", "none"); synonyms count ("freed" for released, "y"
-- for yes, "-16" or "ebusy" for -EBUSY); a list ("usb, bus") may come in any order.
-- An answer that is not one of the choices is asked again.

local predictions = { right = 0, asked = 0 }

local STATES = { "uninitialized", "initialized", "in sysfs", "deleted", "release pending",
                 "released" }

-- Words that mean the same answer, each mapped to the canonical one.
local SYNONYMS = {}
for canonical, words in pairs{
  yes = { "y", "yes", "yeah", "yep", "true" },
  no = { "n", "no", "nope", "false" },
  released = { "freed", "free", "gone", "dead", "destroyed" },
  ["in sysfs"] = { "added", "registered", "in_sysfs", "sysfs", "visible" },
  deleted = { "removed", "del", "deleted from sysfs", "unregistered" },
  initialized = { "initialised", "init", "inited" },
  uninitialized = { "uninitialised", "not initialized", "not initialised" },
  ["release pending"] = { "pending", "pending release", "queued", "release queued" },
  ["nil"] = { "null", "nothing" },
} do
  for _, word in ipairs(words) do SYNONYMS[word] = canonical end
end

local NUMBER_WORDS = {
  zero = 0, none = 0, one = 1, two = 2, three = 3, four = 4, five = 5, six = 6,
  seven = 7, eight = 8, nine = 9, ten = 10, eleven = 11, twelve = 12, thirteen = 13,
  fourteen = 14, fifteen = 15, sixteen = 16, seventeen = 17, eighteen = 18,
  nineteen = 19, twenty = 20,
}

-- Lower case, single spaces, no surrounding space, quotes or final full stop.
local function tidy(s)
  s = tostring(s):lower():gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")
  s = s:gsub("[.!]+$", "")
  local inner = s:match("^[\"'`](.*)[\"'`]$")
  return inner or s
end

-- A number the text means: digits, a number word, or an errno name, which stands for
-- the negative error code that functions return ("-EBUSY" or "ebusy": -16).
local function number_of(s)
  local n = tonumber(s) or NUMBER_WORDS[s]
  if n then return n end
  local name = s:match("^%-?(e%l+)$")
  local errno = name and _ENV[name:upper()]
  if math.type(errno) == "integer" then return -errno end
end

-- The canonical form of one item, compared between the answer and the truth.
local function canonical(s)
  s = tidy(s)
  local n = number_of(s)
  if n then return string.format("%d", n) end
  return SYNONYMS[s] or s
end

-- The canonical form of a whole answer: a list ("bus, usb") is a sorted set of items.
local function normal(value)
  local s = tidy(value)
  if not s:find(",") then return canonical(s) end
  local items = {}
  for item in s:gmatch("[^,]+") do items[#items + 1] = canonical(item) end
  table.sort(items)
  return table.concat(items, ",")
end

local CHOICE_SETS = { state = STATES, ["yes/no"] = { "yes", "no" } }

-- The choices @opts names: a list, or the name of a set ("state", "yes/no").
local function choices_of(question, opts)
  local choices = opts and opts.choices
  if type(choices) == "string" then
    choices = CHOICE_SETS[choices] or
      error("predict: '" .. question .. "' names no known set of choices: " .. opts.choices, 3)
  end
  return choices
end

-- A truth that is one of a few words (a state, yes or no) must come with its choices,
-- so the student knows the words the question accepts.
local function needs_choices(value)
  local c = canonical(value)
  if c == "yes" or c == "no" then return true end
  for _, state in ipairs(STATES) do
    if c == state then return true end
  end
  return false
end

local function list_choices(choices)
  if #choices == 2 then return "(" .. choices[1] .. " or " .. choices[2] .. ")" end
  return "(one of: " .. table.concat(choices, ", ") .. ")"
end

local function among(answer, choices)
  local a = normal(answer)
  for _, choice in ipairs(choices) do
    if normal(choice) == a then return true end
  end
  return false
end

-- The student's answer; one that is not among @choices is asked again (three tries).
local function ask(choices)
  for _ = 1, 3 do
    local answer = lesson_ask("your prediction> ")
    if answer == nil or not choices or among(answer, choices) then return answer end
    print("  '" .. answer .. "' is not one of the choices " .. list_choices(choices))
  end
  return lesson_ask("your prediction> ")
end

-- prediction_matches(answer, truth): whether the answer means the truth.
function prediction_matches(answer, truth)
  return normal(answer) == normal(truth)
end

function predict(question, truth, explanation, opts)
  if type(explanation) ~= "string" or explanation == "" then
    error("predict: the question '" .. question .. "' needs an explanation", 2)
  end
  local choices = choices_of(question, opts)
  print("\n? " .. question .. (choices and " " .. list_choices(choices) or ""))
  local answer = lesson_ask and ask(choices)
  local value = truth()
  if not choices and needs_choices(value) then
    error("predict: the answer to '" .. question .. "' is one of a few words; " ..
          "list them in opts.choices", 2)
  end
  if answer == nil or tidy(answer) == "" then
    print("  (answer: " .. tostring(value) .. ")")
  else
    predictions.asked = predictions.asked + 1
    if prediction_matches(answer, value) then
      predictions.right = predictions.right + 1
      print("  right: " .. tostring(value))
    else
      print("  not quite: you said " .. answer .. ", it is " .. tostring(value))
    end
  end
  print("  " .. explanation)
  return value
end

function prediction_score()
  return predictions.right, predictions.asked
end
