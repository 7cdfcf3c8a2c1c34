# docsctl fish completion, generated from the command tree of docsctl 0.1.0.
# Install: docsctl completion fish > ~/.config/fish/completions/docsctl.fish
function __docsctl_node --description "the docsctl command path typed so far"
    set -l words (commandline -opc)
    set -e words[1]
    set -l node "docsctl"
    set -l skip 0
    for w in $words
        if test $skip -eq 1; set skip 0; continue; end
        switch $w
            case "--profile" "--org" "--timeout"
                set skip 1
            case "-*"
            case "*"
                if contains -- $w (__docsctl_subs "$node")
                    set node "$node $w"
                end
        end
    end
    echo $node
end
function __docsctl_subs
    switch "$argv[1]"
        case 'docsctl'
            printf '%s\n' 'auth' 'serve' 'api' 'completion' 'orgs' 'members' 'teams' 'ping' 'saml' 'sso' 'openapi' 'tree' 'collections' 'spaces' 'content' 'cr' 'comments' 'sites'
        case 'docsctl auth'
            printf '%s\n' 'login' 'status' 'switch' 'logout' 'token'
        case 'docsctl orgs'
            printf '%s\n' 'list' 'get' 'update'
        case 'docsctl members'
            printf '%s\n' 'list' 'get' 'set-role' 'remove' 'sso' 'spaces' 'teams'
        case 'docsctl teams'
            printf '%s\n' 'list'
        case 'docsctl saml'
            printf '%s\n' 'list' 'get' 'create' 'update' 'delete'
        case 'docsctl sso'
            printf '%s\n' 'list'
        case 'docsctl openapi'
            printf '%s\n' 'list' 'get' 'create' 'put' 'publish' 'unpublish' 'delete' 'versions' 'version' 'content'
        case 'docsctl collections'
            printf '%s\n' 'list' 'get' 'create' 'update' 'delete' 'move' 'transfer' 'spaces'
        case 'docsctl spaces'
            printf '%s\n' 'list' 'get' 'create' 'update' 'delete' 'restore' 'duplicate' 'move' 'transfer' 'links'
        case 'docsctl content'
            printf '%s\n' 'show' 'pages' 'page' 'files' 'file' 'search' 'import' 'template' 'links' 'backlinks'
        case 'docsctl cr'
            printf '%s\n' 'list' 'get' 'create' 'edit' 'merge' 'update' 'pdf' 'content' 'pages' 'page' 'import'
        case 'docsctl comments'
            printf '%s\n' 'list' 'get' 'post' 'edit' 'resolve' 'reopen' 'react' 'unreact' 'delete' 'replies' 'reply' 'commenters'
        case 'docsctl sites'
            printf '%s\n' 'list' 'get' 'create' 'update' 'delete' 'publish' 'unpublish' 'published' 'sections' 'section-groups' 'spaces' 'schema'
        case 'docsctl sites sections'
            printf '%s\n' 'list' 'add' 'update' 'move' 'remove'
        case 'docsctl sites section-groups'
            printf '%s\n' 'list' 'add' 'update' 'move' 'add-section' 'remove-section' 'remove'
        case 'docsctl sites spaces'
            printf '%s\n' 'list' 'add' 'update' 'move' 'remove'
        case 'docsctl sites schema'
            printf '%s\n' 'get' 'set' 'conditions'
    end
end
function __docsctl_at
    test (__docsctl_node) = "$argv[1]"
end
complete -c docsctl -f
complete -c docsctl -n '__docsctl_at "docsctl"' -a 'auth serve api completion orgs members teams ping saml sso openapi tree collections spaces content cr comments sites'
complete -c docsctl -n '__docsctl_at "docsctl"' -l profile -r
complete -c docsctl -n '__docsctl_at "docsctl"' -l org -r
complete -c docsctl -n '__docsctl_at "docsctl"' -l timeout -r
complete -c docsctl -n '__docsctl_at "docsctl"' -l verbose
complete -c docsctl -n '__docsctl_at "docsctl"' -l no-input
complete -c docsctl -n '__docsctl_at "docsctl"' -l no-color
complete -c docsctl -n '__docsctl_at "docsctl"' -l help
complete -c docsctl -n '__docsctl_at "docsctl"' -l version
complete -c docsctl -n '__docsctl_at "docsctl auth"' -a 'login status switch logout token'
complete -c docsctl -n '__docsctl_at "docsctl auth"' -l help
complete -c docsctl -n '__docsctl_at "docsctl auth login"' -l api-url -r
complete -c docsctl -n '__docsctl_at "docsctl auth login"' -l with-token
complete -c docsctl -n '__docsctl_at "docsctl auth login"' -l json
complete -c docsctl -n '__docsctl_at "docsctl auth login"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl auth login"' -l help
complete -c docsctl -n '__docsctl_at "docsctl auth status"' -l json
complete -c docsctl -n '__docsctl_at "docsctl auth status"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl auth status"' -l help
complete -c docsctl -n '__docsctl_at "docsctl auth switch"' -l json
complete -c docsctl -n '__docsctl_at "docsctl auth switch"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl auth switch"' -l help
complete -c docsctl -n '__docsctl_at "docsctl auth logout"' -l help
complete -c docsctl -n '__docsctl_at "docsctl auth token"' -l help
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l memory
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l data -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l port -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l host -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l token -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l seed -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l json
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l chaos -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l chaos-seed -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l allow-fetch -r
complete -c docsctl -n '__docsctl_at "docsctl serve"' -l help
complete -c docsctl -n '__docsctl_at "docsctl api"' -l method -x -a 'GET POST PUT PATCH DELETE HEAD OPTIONS'
complete -c docsctl -n '__docsctl_at "docsctl api"' -l raw-field -r
complete -c docsctl -n '__docsctl_at "docsctl api"' -l field -r
complete -c docsctl -n '__docsctl_at "docsctl api"' -l header -r
complete -c docsctl -n '__docsctl_at "docsctl api"' -l input -r
complete -c docsctl -n '__docsctl_at "docsctl api"' -l paginate
complete -c docsctl -n '__docsctl_at "docsctl api"' -l slurp
complete -c docsctl -n '__docsctl_at "docsctl api"' -l jq -r
complete -c docsctl -n '__docsctl_at "docsctl api"' -l silent
complete -c docsctl -n '__docsctl_at "docsctl api"' -l include
complete -c docsctl -n '__docsctl_at "docsctl api"' -l help
complete -c docsctl -n '__docsctl_at "docsctl completion"' -l help
complete -c docsctl -n '__docsctl_at "docsctl orgs"' -a 'list get update'
complete -c docsctl -n '__docsctl_at "docsctl orgs"' -l help
complete -c docsctl -n '__docsctl_at "docsctl orgs list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl orgs list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl orgs list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl orgs list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl orgs list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl orgs list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl orgs get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl orgs get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl orgs get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l email-domains -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l hostname -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l default-role -x -a 'admin create review edit comment read guest null'
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l default-site -x -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l logo -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l sso -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l ai -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l invite-links -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l merge-rules -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l require-reviewers -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl orgs update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members"' -a 'list get set-role remove sso spaces teams'
complete -c docsctl -n '__docsctl_at "docsctl members"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l role -x -a 'admin create review edit comment read guest'
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l search -r
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l sort -x -a 'joinedAt lastSeenAt name'
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l order -x -a 'asc desc'
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl members list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members set-role"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members set-role"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members set-role"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl members set-role"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members remove"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members remove"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members remove"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl members remove"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members sso"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members sso"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members sso"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l order -x -a 'asc desc'
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l all
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl members spaces"' -l help
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l json
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l all
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl members teams"' -l help
complete -c docsctl -n '__docsctl_at "docsctl teams"' -a 'list'
complete -c docsctl -n '__docsctl_at "docsctl teams"' -l help
complete -c docsctl -n '__docsctl_at "docsctl teams list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl teams list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl teams list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl teams list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl teams list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl teams list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl ping"' -l json
complete -c docsctl -n '__docsctl_at "docsctl ping"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl ping"' -l help
complete -c docsctl -n '__docsctl_at "docsctl saml"' -a 'list get create update delete'
complete -c docsctl -n '__docsctl_at "docsctl saml"' -l help
complete -c docsctl -n '__docsctl_at "docsctl saml list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl saml list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl saml list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl saml list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl saml list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl saml list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl saml get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl saml get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl saml get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l label -r
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l entity-id -r
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l sso-url -r
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l certificate-file -r
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l default-team -r
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l default-role -x -a 'admin create review edit comment read guest null'
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l json
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl saml create"' -l help
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l label -r
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l entity-id -r
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l sso-url -r
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l certificate-file -r
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l default-team -r
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l default-role -x -a 'admin create review edit comment read guest null'
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl saml update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl saml delete"' -l json
complete -c docsctl -n '__docsctl_at "docsctl saml delete"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl saml delete"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl saml delete"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sso"' -a 'list'
complete -c docsctl -n '__docsctl_at "docsctl sso"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sso list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sso list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sso list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi"' -a 'list get create put publish unpublish delete versions version content'
complete -c docsctl -n '__docsctl_at "docsctl openapi"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl openapi list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl openapi list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl openapi list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l url -r
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l file -r
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l wait
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l no-wait
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l wait-timeout -r
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi create"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l url -r
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l file -r
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l wait
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l no-wait
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l wait-timeout -r
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi put"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi publish"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi publish"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi publish"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi unpublish"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi unpublish"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi unpublish"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi delete"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi delete"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi delete"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl openapi delete"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi versions"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi versions"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi versions"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl openapi versions"' -l all
complete -c docsctl -n '__docsctl_at "docsctl openapi versions"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl openapi versions"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi version"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi version"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi version"' -l help
complete -c docsctl -n '__docsctl_at "docsctl openapi content"' -l version -r
complete -c docsctl -n '__docsctl_at "docsctl openapi content"' -l json
complete -c docsctl -n '__docsctl_at "docsctl openapi content"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl openapi content"' -l help
complete -c docsctl -n '__docsctl_at "docsctl tree"' -l deleted
complete -c docsctl -n '__docsctl_at "docsctl tree"' -l json
complete -c docsctl -n '__docsctl_at "docsctl tree"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl tree"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections"' -a 'list get create update delete move transfer spaces'
complete -c docsctl -n '__docsctl_at "docsctl collections"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l top-level
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl collections list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections get"' -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections create"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl collections create"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl collections create"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections create"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections create"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -l description -r
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -l default-level -x -a 'admin create review edit comment read inherit null'
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections update"' -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections delete"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections delete"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections delete"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl collections delete"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections delete"' -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l root
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l before -x -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l after -x -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l before-collection -x -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l after-collection -x -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections move"' -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections transfer"' -l to -r
complete -c docsctl -n '__docsctl_at "docsctl collections transfer"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections transfer"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections transfer"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl collections transfer"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections transfer"' -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -l json
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -l all
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -l help
complete -c docsctl -n '__docsctl_at "docsctl collections spaces"' -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces"' -a 'list get create update delete restore duplicate move transfer links'
complete -c docsctl -n '__docsctl_at "docsctl spaces"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l collection -r
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l deleted
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl spaces list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces get"' -l share-key -r
complete -c docsctl -n '__docsctl_at "docsctl spaces get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces get"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l emoji -r
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l collection -r
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l language -x -a 'en fr de es it pt pt-br ru ja zh zh-tw yue ko ar hi nl pl tr sv no da fi el cs hu ro th vi id ms he uk sk bg hr lt lv et sl'
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l edit-mode -x -a 'live locked'
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l template -r
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces create"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l emoji -r
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l icon -r
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l language -x -a 'en fr de es it pt pt-br ru ja zh zh-tw yue ko ar hi nl pl tr sv no da fi el cs hu ro th vi id ms he uk sk bg hr lt lv et sl'
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l edit-mode -x -a 'live locked'
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l default-level -x -a 'admin create review edit comment read inherit null'
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l merge-rules -x -a 'inherit'
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l require-reviewers -r
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces update"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces delete"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces delete"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces delete"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl spaces delete"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces delete"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces restore"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces restore"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces restore"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces restore"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces duplicate"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces duplicate"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces duplicate"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces duplicate"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l root
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l before -x -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l after -x -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l before-collection -x -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l after-collection -x -a '(docsctl __complete ids collection 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces move"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -l to -r
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces transfer"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -l broken
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -l status -x -a 'ok broken in-app'
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -l fail-on-broken
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -l json
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -l help
complete -c docsctl -n '__docsctl_at "docsctl spaces links"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content"' -a 'show pages page files file search import template links backlinks'
complete -c docsctl -n '__docsctl_at "docsctl content"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content show"' -l omit-metadata
complete -c docsctl -n '__docsctl_at "docsctl content show"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content show"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content show"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content show"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content pages"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content pages"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content pages"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content pages"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content page"' -l markdown
complete -c docsctl -n '__docsctl_at "docsctl content page"' -l evaluated
complete -c docsctl -n '__docsctl_at "docsctl content page"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content page"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content page"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content page"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content files"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content files"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content files"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl content files"' -l all
complete -c docsctl -n '__docsctl_at "docsctl content files"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl content files"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content files"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content file"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content file"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content file"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content file"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content search"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content search"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content search"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl content search"' -l all
complete -c docsctl -n '__docsctl_at "docsctl content search"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl content search"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content search"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content import"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content import"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content import"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content import"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content template"' -l logo -r
complete -c docsctl -n '__docsctl_at "docsctl content template"' -l logo-space -x -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content template"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content template"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content template"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content template"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content template"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l broken
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l status -x -a 'ok broken in-app'
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l fail-on-broken
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content links"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content links"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -l file -r
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -l json
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -l help
complete -c docsctl -n '__docsctl_at "docsctl content backlinks"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr"' -a 'list get create edit merge update pdf content pages page import'
complete -c docsctl -n '__docsctl_at "docsctl cr"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l status -x -a 'draft open archived merged all'
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l creator -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l contributor -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l requested-reviewer -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l conversations-issues-cluster -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l order-by -x -a 'updatedAt createdAt'
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr list"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr get"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -l subject -r
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -l template -r
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -l conversations-issues-cluster -r
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr create"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l subject -r
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l description -r
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l description-file -r
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l status -x -a 'draft open archived'
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr edit"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr merge"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr merge"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr merge"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl cr merge"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr merge"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr update"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l out -r
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l only
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr pdf"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr content"' -l omit-metadata
complete -c docsctl -n '__docsctl_at "docsctl cr content"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr content"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr content"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr content"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr pages"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr pages"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr pages"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr pages"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr page"' -l markdown
complete -c docsctl -n '__docsctl_at "docsctl cr page"' -l evaluated
complete -c docsctl -n '__docsctl_at "docsctl cr page"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr page"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr page"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr page"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl cr import"' -l json
complete -c docsctl -n '__docsctl_at "docsctl cr import"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl cr import"' -l help
complete -c docsctl -n '__docsctl_at "docsctl cr import"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments"' -a 'list get post edit resolve reopen react unreact delete replies reply commenters'
complete -c docsctl -n '__docsctl_at "docsctl comments"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l status -x -a 'all open resolved'
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l order -x -a 'asc desc'
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l target-page -r
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l authors -r
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments list"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -l format -x -a 'markdown document'
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments get"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l body -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l body-file -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l document-file -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l node -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments post"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l body -r
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l body-file -r
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l document-file -r
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments edit"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments resolve"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments resolve"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments resolve"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments resolve"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments resolve"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments resolve"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments reopen"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments reopen"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments reopen"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments reopen"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments reopen"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments reopen"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments react"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments react"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments react"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments react"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments react"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments react"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments unreact"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments unreact"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments unreact"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments unreact"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments unreact"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments unreact"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -l reply -r
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments delete"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l all
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments replies"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l body -r
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l body-file -r
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l document-file -r
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments reply"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l cr -x -a '(docsctl __complete ids cr 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l json
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l all
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -l help
complete -c docsctl -n '__docsctl_at "docsctl comments commenters"' -a '(docsctl __complete ids space 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites"' -a 'list get create update delete publish unpublish published sections section-groups spaces schema'
complete -c docsctl -n '__docsctl_at "docsctl sites"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l space -r
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l published -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l type -r
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites get"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l type -x -a 'basic premium ultimate sponsored legacy-basic legacy-premium'
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l visibility -x -a 'public unlisted share-link visitor-auth'
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l space -r
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites create"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l visibility -x -a 'public unlisted share-link visitor-auth'
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l basename -r
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l proxy -r
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l adaptive-content -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l agents-context -x -a 'excluded included'
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l default-level -x -a 'admin create review edit comment read inherit null'
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l default-site-space -r
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l default-site-section -r
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites update"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites delete"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites delete"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites delete"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl sites delete"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites delete"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites publish"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites publish"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites publish"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites publish"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites unpublish"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites unpublish"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites unpublish"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites unpublish"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites published"' -l share-key -r
complete -c docsctl -n '__docsctl_at "docsctl sites published"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites published"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites published"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites published"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites sections"' -a 'list add update move remove'
complete -c docsctl -n '__docsctl_at "docsctl sites sections"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l share-key -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites sections list"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l space -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l new-space
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l template -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l icon -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l group -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l draft
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites sections add"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l path -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l default-site-space -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l condition -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l icon -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l description -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l group -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l draft -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites sections update"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -l before -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -l after -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -l last
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites sections move"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites sections remove"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites sections remove"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites sections remove"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl sites sections remove"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites sections remove"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups"' -a 'list add update move add-section remove-section remove'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups list"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l icon -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l section -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l draft
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l icon -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l parent -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l draft -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups update"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l before -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l after -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l before-group -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l after-group -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l last
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups move"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add-section"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add-section"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add-section"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups add-section"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove-section"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove-section"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove-section"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove-section"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites section-groups remove"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces"' -a 'list add update move remove'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l default -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l share-key -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l limit -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l all
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites spaces list"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l space -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l new-space
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l template -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l title -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l section -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l draft
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites spaces add"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l path -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l condition -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l space -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l page-id -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l page -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l hidden -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l draft -x -a 'true false'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites spaces update"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -l before -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -l after -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -l last
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites spaces move"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites spaces remove"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites spaces remove"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites spaces remove"' -l yes
complete -c docsctl -n '__docsctl_at "docsctl sites spaces remove"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites spaces remove"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites schema"' -a 'get set conditions'
complete -c docsctl -n '__docsctl_at "docsctl sites schema"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites schema get"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites schema get"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites schema get"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites schema get"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites schema set"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites schema set"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites schema set"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites schema set"' -a '(docsctl __complete ids site 2>/dev/null)'
complete -c docsctl -n '__docsctl_at "docsctl sites schema conditions"' -l json
complete -c docsctl -n '__docsctl_at "docsctl sites schema conditions"' -l fields -r
complete -c docsctl -n '__docsctl_at "docsctl sites schema conditions"' -l help
complete -c docsctl -n '__docsctl_at "docsctl sites schema conditions"' -a '(docsctl __complete ids site 2>/dev/null)'
