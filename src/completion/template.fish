# fish completion for fcast, generated from its command tree by `fcast completion fish`.
# Save it where fish looks:  fcast completion fish > ~/.config/fish/completions/fcast.fish

function __fcast_spec
    set -g __fcast_commands
    set -g __fcast_command_names
    set -g __fcast_options
    set -g __fcast_value_options
    set -g __fcast_option_values
    set -g __fcast_args
    switch "$argv[1]"
        # @command-table@
    end
end

function __fcast_values
    switch $argv[1]
        case symbols
            # A local cache, refreshed in the background at most once a day: TAB never waits for the network.
            $__fcast_program __complete-symbols 2>/dev/null
        # @value-lists@
    end
end

function __fcast_argument_words
    set -l position $argv[1]
    set -l count (count $__fcast_args)
    set -l source
    if test $position -lt $count
        set source $__fcast_args[(math $position + 1)]
    else if test $count -gt 0; and string match -q -- '*...' $__fcast_args[-1]
        set source $__fcast_args[-1]
    else
        return
    end
    set source (string replace -- '...' '' $source)
    test "$source" = -; or __fcast_values $source
end

function __fcast_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -g __fcast_program $tokens[1]
    set -l cmdpath ''
    set -l value_of ''
    set -l ended ''
    set -l prefix ''
    set -l position 0
    __fcast_spec ''
    set -l root_options $__fcast_options
    set -l root_value_options $__fcast_value_options
    set -l root_option_values $__fcast_option_values
    set -l count (count $tokens)
    set -l i 2
    while test $i -le $count
        set -l word $tokens[$i]
        if test -z "$ended"; and string match -q -- '-?*' $word
            if test "$word" = --
                set ended 1
            else if contains -- $word $__fcast_value_options $root_value_options
                set i (math $i + 1)
                if test $i -gt $count
                    set value_of $word
                    break
                end
            end
        else if test $position -eq 0; and contains -- $word $__fcast_command_names
            if test -n "$cmdpath"
                set cmdpath "$cmdpath $word"
            else
                set cmdpath $word
            end
            __fcast_spec $cmdpath
        else
            set position (math $position + 1)
        end
        set i (math $i + 1)
    end
    if test -z "$value_of"; and test -z "$ended"; and string match -q -- '-?*=*' $cur
        set value_of (string split -m 1 = -- $cur)[1]
        set prefix "$value_of="
    end
    if test -n "$value_of"
        for pair in $__fcast_option_values $root_option_values
            set -l parts (string split -m 1 = -- $pair)
            if test "$parts[1]" = "$value_of"
                for value in (__fcast_values $parts[2])
                    printf '%s%s\n' $prefix $value
                end
                return
            end
        end
    else if test -z "$ended"; and string match -q -- '-*' $cur
        string join \n -- $__fcast_options
        test -n "$cmdpath"; and string join \n -- $root_options
    else
        test $position -eq 0; and string join \n -- $__fcast_commands
        __fcast_argument_words $position
    end
end

complete -c fcast -f -a '(__fcast_complete)'
