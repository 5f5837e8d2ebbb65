" Check the Vim files on a sample rule text: the file type, the colour group of each kind
" of word, and :RulelangFmt on a good and on a broken file. From the repository's root,
" with `rulelang` on the PATH:
"   vim -N -u NONE -i NONE -es -S editors/vim/check.vim && echo ok
" Vim exits 1 (and prints what differs) when a check fails.
let s:root = fnamemodify(expand("<sfile>:p"), ":h")
execute "set runtimepath^=" . s:root
filetype plugin on
syntax on
let s:dir = tempname()
call mkdir(s:dir)
let s:problems = []
call writefile([
  \ 'say "{p} has {count(c for c in hand[p])} cards {{x}}" # told',
  \ 'set c.path = -3 + len(players)',
  \ 'players 2..4',
  \ 'def fits(c: playcard) = true',
  \ 'card x count 28 { name: text = "{text(1)}" }'], s:dir . "/sample.rules")
execute "edit " . s:dir . "/sample.rules"
if &filetype !=# "rulelang" || &shiftwidth != 2
  call add(s:problems, "filetype " . &filetype . ", shiftwidth " . &shiftwidth)
endif
" [line, column, group]: one word of each kind
for [s:l, s:c, s:group] in [[1, 1, "rulelangKeyword"], [1, 6, "rulelangInterpolationBrace"],
      \ [1, 10, "rulelangText"], [1, 16, "rulelangBuiltin"], [1, 29, "rulelangOperatorWord"],
      \ [1, 48, "rulelangEscape"], [1, 56, "rulelangComment"], [2, 8, "rulelangAttribute"],
      \ [2, 15, "rulelangNumber"], [3, 1, "rulelangKeyword"], [4, 5, "rulelangFunction"],
      \ [4, 25, "rulelangConstant"], [5, 8, "rulelangKeyword"], [5, 26, "rulelangType"],
      \ [5, 34, "rulelangBuiltin"]]
  let s:got = synIDattr(synID(s:l, s:c, 1), "name")
  if s:got !=# s:group
    call add(s:problems, s:l . ":" . s:c . " is " . s:got . ", not " . s:group)
  endif
endfor
call writefile(['game "x"', 'players 2..4', 'turn {', '      pass', '}'], s:dir . "/good.rules")
execute "edit " . s:dir . "/good.rules"
RulelangFmt
if getline(4) !=# "  pass"
  call add(s:problems, ":RulelangFmt left " . string(getline(4)))
endif
call writefile(['game "x" set'], s:dir . "/broken.rules")
execute "edit! " . s:dir . "/broken.rules"
silent! RulelangFmt
if getline(1, "$") !=# ['game "x" set']
  call add(s:problems, ":RulelangFmt changed a broken file: " . string(getline(1, "$")))
endif
if empty(s:problems)
  qall!
endif
for s:p in s:problems
  verbose echo s:p . "\n"
endfor
cquit!
