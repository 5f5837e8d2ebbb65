" Vim syntax file for rule files of rulelang (*.rules).
" The keyword lists follow rulelang/syntax/rulelang.lark; tests/test_highlight.py compares them.
" Install: copy editors/vim/ into ~/.vim (Vim) or ~/.config/nvim (Neovim), see docs/editors.md.
if exists("b:current_syntax")
  finish
endif

syntax case match
syntax iskeyword @,48-57,_

syntax keyword rulelangType bool int list node player
syntax keyword rulelangConstant false none true
syntax keyword rulelangOperatorWord and in not or
syntax keyword rulelangControl break continue elif else for if pass repeat return then while
syntax keyword rulelangKeyword add after allow as at begin bends board bot bots by card cells choose
syntax keyword rulelangKeyword choosing clear clockwise complete connected const counterclockwise deal
syntax keyword rulelangKeyword decisions def die display do draw duels edge end enum estimate extends from game
syntax keyword rulelangKeyword generate global imagine import keep length let library log measure most move
syntax keyword rulelangKeyword next on order others override owner param path per phase pick piece place
syntax keyword rulelangKeyword proc prompt random rank react require reveal rim roll say secret set setup
syntax keyword rulelangKeyword shuffle sides skip state table tiles to turn visible when where win zone
" `players` opens a line as a keyword (players 2..4); elsewhere it is the list of players
syntax match rulelangKeyword /^\s*\zsplayers\>/
" built-ins that are keywords too (count 28, count(...)): the keyword unless a call
syntax match rulelangKeyword /\<\(all\|count\)\>(\@!/
syntax match rulelangType /\<\(side\|text\)\>(\@!/
syntax match rulelangBuiltin /\<\(abs\|across\|all\|any\|cell\|count\|distance\|face_up\|first\|fits\|joins\|known\|last\|len\|line_from\|lines_through\|max\|min\|neighbour\|next_player\|nodes\|number\|on_rim\|open_side\|path_length\|pieces\|placed\|prev_player\|reached\|seat\|secret_at\|side\|side_cell\|side_dir\|spots\|step\|sum\|text\|tile\|touching\|turn_of\|without\)\ze(/
syntax match rulelangFunction /\(\<\(def\|proc\)\s\+\)\@<=\h\w*/
" a word after `.` is an attribute, not a keyword (c.path, p.at); the match starts at the
" dot because a Vim keyword beats a match that starts where it does
syntax match rulelangAttribute /\.\@<!\.\s*\h\w*/
syntax match rulelangNumber /\<\d\+\>/
syntax match rulelangOperator /\.\.\|[-+*\/%<>=!]=\?/
syntax match rulelangComment /#.*$/ contains=@Spell
syntax region rulelangText start=/"/ skip=/\\./ end=/"/ contains=rulelangEscape,rulelangInterpolation,@Spell
syntax region rulelangInterpolation matchgroup=rulelangInterpolationBrace start=/{/ end=/}/ contained contains=TOP
" after the interpolation: of two that start at one place, Vim takes the last defined
syntax match rulelangEscape /\\.\|{{\|}}/ contained

highlight default link rulelangType Type
highlight default link rulelangConstant Constant
highlight default link rulelangOperatorWord Operator
highlight default link rulelangControl Conditional
highlight default link rulelangKeyword Keyword
highlight default link rulelangAttribute Identifier
highlight default link rulelangBuiltin Function
highlight default link rulelangFunction Function
highlight default link rulelangNumber Number
highlight default link rulelangOperator Operator
highlight default link rulelangComment Comment
highlight default link rulelangText String
highlight default link rulelangEscape SpecialChar
highlight default link rulelangInterpolationBrace Delimiter

let b:current_syntax = "rulelang"
