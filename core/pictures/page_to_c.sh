#!/bin/sh
# Turns the timeline page into C: timeline_page.html ($1) with the script timeline.js ($2)
# in place of its <!--SCRIPT--> line; the text before the <!--DATA--> line becomes
# kobj_timeline_head, the text after it kobj_timeline_tail.
echo '/* Generated from core/pictures/timeline_page.html and timeline.js by page_to_c.sh. */'
echo '#include "core/pictures/timeline_page.h"'
echo 'const char kobj_timeline_head[] ='
sed -e "/^<!--SCRIPT-->\$/{r $2" -e 'd;}' "$1" |
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' \
    -e 's/^\t"<!--DATA-->\\n"$/;\nconst char kobj_timeline_tail[] =/'
echo ';'
