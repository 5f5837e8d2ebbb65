" *.rules files are rule files of rulelang. Vim's own list takes them for "hog" (Snort
" rules), whose plugin leaves b:did_ftplugin behind without an undo: clear it, so that
" ftplugin/rulelang.vim loads.
autocmd BufRead,BufNewFile *.rules unlet! b:did_ftplugin | set filetype=rulelang
