#!/usr/bin/env python3
"""Sum of value sizes whose defining instruction has source file:line
matching a glob, read straight from two dumps (for tests/t0420).

    source_bytes.py OLD GLOB NEW   prints "OLD_BYTES NEW_BYTES"
"""
import re,sys,fnmatch
def total(path, glob):
    sizes={}; cur=None; tot=0
    for line in open(path):
        m=re.match(r' value: <(\d+) [^>]*> \(size=(\d+),',line)
        if m: sizes[m.group(1)]=int(m.group(2)); continue
        m=re.match(r'<(\d+) ',line)
        if m: cur=m.group(1); continue
        if line.startswith(' from instruction: ') and cur is not None:
            m=re.search(r'source_file="([^"]*)" source_line=(\d+)',line)
            if m and fnmatch.fnmatchcase(m.group(1)+':'+m.group(2), glob):
                tot+=sizes.get(cur,0)
            cur=None
    return tot
print(total(sys.argv[1],sys.argv[2]), total(sys.argv[3],sys.argv[2]))
