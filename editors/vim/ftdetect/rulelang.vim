" *.rules files are rule files of rulelang (Vim's own list calls *.rules "hog": override it)
autocmd BufRead,BufNewFile *.rules set filetype=rulelang
