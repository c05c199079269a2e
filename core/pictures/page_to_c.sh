#!/bin/sh
# Turns the timeline page into C: the text before its <!--DATA--> line becomes
# kobj_timeline_head, the text after it kobj_timeline_tail.
echo '/* Generated from core/pictures/timeline_page.html by core/pictures/page_to_c.sh. */'
echo '#include "core/pictures/timeline_page.h"'
echo 'const char kobj_timeline_head[] ='
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' \
    -e 's/^\t"<!--DATA-->\\n"$/;\nconst char kobj_timeline_tail[] =/' "$1"
echo ';'
