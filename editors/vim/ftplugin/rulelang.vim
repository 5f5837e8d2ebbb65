" Rule files of rulelang: comments start with #, blocks are indented by two spaces, and
" :RulelangFmt lays the buffer out with `rulelang fmt -` (the buffer is left alone, and
" the errors shown, when the file does not parse).
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:#
setlocal expandtab shiftwidth=2 softtabstop=2
let b:undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< softtabstop<"
  \ . " | delcommand -buffer RulelangFmt"

if !exists("*s:Format")
  function s:Format() abort
    let l:out = systemlist("rulelang fmt -", getline(1, "$"))
    if v:shell_error != 0
      echohl ErrorMsg | echo join(l:out, "\n") | echohl None
      return
    endif
    if l:out !=# getline(1, "$")
      let l:view = winsaveview()
      silent! undojoin
      call setline(1, l:out)
      if line("$") > len(l:out)
        silent execute (len(l:out) + 1) . ",$delete _"
      endif
      call winrestview(l:view)
    endif
  endfunction
endif
command! -buffer RulelangFmt call s:Format()
